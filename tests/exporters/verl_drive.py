"""verl 0.9.1 driving an exported envforge environment on CPU (run by test_verl_contract.py).

    python verl_drive.py EXPORTS WORKDIR

Runs in a virtual environment holding verl, a CPU torch and the exported wheels; prints one JSON summary
line. The model is a stand-in: a tiny tokenizer trained here with Qwen2.5's ChatML/Hermes chat template,
and a scripted server whose `generate` returns a task's next oracle turn as token ids. The rest is verl's
own code: hydra composes the trainer config from verl's `ppo_trainer.yaml`, `AgentLoopWorker` loads the
exported `tool_config.yaml` and `agent_loop.yaml`, `RLHFDataset` reads the exported `train.parquet`, the
loops are built with `hydra.utils.instantiate` as the worker builds them, and verl's reward loop loads
`envforge/adapters/verl_reward.py` by path for the stock `tool_agent` loop.
"""

from __future__ import annotations

import asyncio
import copy
import json
import os
import sys
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any
from uuid import uuid4

EXPORTS, WORK = Path(sys.argv[1]), Path(sys.argv[2])
os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["HF_HOME"] = str(WORK / "hf")
os.environ["TOKENIZERS_PARALLELISM"] = "false"

started = time.perf_counter()

import numpy as np  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
import verl  # noqa: E402
import yaml  # noqa: E402

# hydra comes with verl; the development environment, where mypy runs, does not have it.
from hydra import compose, initialize_config_dir  # type: ignore[import-not-found, unused-ignore]  # noqa: E402
from hydra.utils import instantiate  # type: ignore[import-not-found, unused-ignore]  # noqa: E402
from verl.experimental.agent_loop.agent_loop import (  # noqa: E402
    AgentLoopWorker,
    DictConfigWrap,
    ToolListWrap,
    _agent_loop_registry,
)
from verl.experimental.reward_loop.reward_loop import RewardLoopWorker  # noqa: E402
from verl.protocol import DataProto  # noqa: E402
from verl.tools.schemas import OpenAIFunctionToolSchema  # noqa: E402
from verl.tools.tool_registry import initialize_tools_from_config  # noqa: E402
from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn  # noqa: E402
from verl.workers.rollout.replica import TokenOutput  # noqa: E402

import envforge  # noqa: E402
from envforge.adapters import verl_reward  # noqa: E402
from envforge.adapters.packages import installed_package  # noqa: E402
from envforge.adapters.verl_agent import EnvforgeTool  # noqa: E402
from envforge.adapters.verl_reward import compute_score  # noqa: E402
from envforge.ir.tasks import TaskSpec, ToolCall  # noqa: E402
from envforge.runtime.dialogue import golden_dialogue  # noqa: E402
from envforge.runtime.episode import EnvPackage, Episode  # noqa: E402

import_s = time.perf_counter() - started

DOMAIN = "retail"
TASKS_PER_KIND = 2
PROMPT_LENGTH = 8192
RESPONSE_LENGTH = 8192
SAMPLING = {"temperature": 1.0, "top_p": 1.0, "top_k": -1, "repetition_penalty": 1.0, "logprobs": False}

# Qwen2.5-Instruct's chat template (Hermes tool calls), with a neutral default system prompt.
CHAT_TEMPLATE = r"""{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0]['role'] == 'system' %}
        {{- messages[0]['content'] }}
    {%- else %}
        {{- 'You are a helpful assistant.' }}
    {%- endif %}
    {{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n</tool_call><|im_end|>\n" }}
{%- else %}
    {%- if messages[0]['role'] == 'system' %}
        {{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
    {%- else %}
        {{- '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}
    {%- endif %}
{%- endif %}
{%- for message in messages %}
    {%- if (message.role == "user") or (message.role == "system" and not loop.first) or (message.role == "assistant" and not message.tool_calls) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>' + '\n' }}
    {%- elif message.role == "assistant" %}
        {{- '<|im_start|>' + message.role }}
        {%- if message.content %}
            {{- '\n' + message.content }}
        {%- endif %}
        {%- for tool_call in message.tool_calls %}
            {%- if tool_call.function is defined %}
                {%- set tool_call = tool_call.function %}
            {%- endif %}
            {{- '\n<tool_call>\n{"name": "' }}
            {{- tool_call.name }}
            {{- '", "arguments": ' }}
            {{- tool_call.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- elif message.role == "tool" %}
        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != "tool") %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' }}
        {{- message.content }}
        {{- '\n</tool_response>' }}
        {%- if loop.last or (messages[loop.index0 + 1].role != "tool") %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}"""
SPECIAL_TOKENS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
# Added but not special in Qwen2.5, so they survive `decode(skip_special_tokens=True)`.
TOOL_TAGS = ["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"]


def build_model_dir(path: Path, corpus: list[str]) -> Path:
    """A Hugging Face folder verl can load offline: a small byte-level BPE tokenizer and a Qwen2 config."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import AddedToken, PreTrainedTokenizerFast, Qwen2Config

    bpe = Tokenizer(models.BPE())
    bpe.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    bpe.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=4096,
        special_tokens=SPECIAL_TOKENS,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    bpe.train_from_iterator(corpus, trainer=trainer)
    fast: Any = PreTrainedTokenizerFast  # untyped in transformers 5
    tokenizer = fast(tokenizer_object=bpe, eos_token="<|im_end|>", pad_token="<|endoftext|>")
    tokenizer.add_tokens([AddedToken(tag, special=False, normalized=False) for tag in TOOL_TAGS])
    tokenizer.chat_template = CHAT_TEMPLATE
    tokenizer.save_pretrained(str(path))
    config = Qwen2Config(
        vocab_size=len(tokenizer),
        hidden_size=16,
        intermediate_size=32,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        architectures=["Qwen2ForCausalLM"],
        eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.pad_token_id,
    )
    config.save_pretrained(str(path))
    return path


def hermes(call: ToolCall) -> str:
    return "<tool_call>\n" + json.dumps({"name": call.name, "arguments": call.arguments}) + "\n</tool_call>"


def answer(task: TaskSpec) -> str:
    """The closing message a correct run ends with: the answer, or what it did and could not do."""
    return installed_package(f"envforge_env_{DOMAIN}").golden_message(task.id)


def oracle_turns(task: TaskSpec, extra: list[ToolCall] | None = None) -> list[str]:
    return [hermes(call) for call in [*task.oracle, *(extra or [])]] + [answer(task)]


def golden_turns(task: TaskSpec) -> list[str]:
    """The model's turns of the task's golden conversation (`golden_dialogue`): its questions for what the user
    holds back, each call, its reports and its closing message; the user's turns are the loop's scripted user's."""
    blueprint = installed_package(f"envforge_env_{DOMAIN}").env.blueprint
    return [
        hermes(step) if isinstance(step, ToolCall) else step.text
        for step in golden_dialogue(task, blueprint)
        if isinstance(step, ToolCall) or step.role == "agent"
    ]


class ScriptedServer:
    """verl's `LLMServerClient.generate`, answering each trajectory with the script of its task.

    The task is recognised by its instruction in the first prompt of a request id; each call returns the
    next turn plus `<|im_end|>`, as vLLM returns the stop token. It also records whether every prompt of a
    trajectory extends the previous prompt and output (verl's token-in, token-out contract).
    """

    def __init__(self, tokenizer: Any, scripts: dict[str, list[str]]) -> None:
        self.tokenizer = tokenizer
        self.scripts = scripts
        self.task_of: dict[str, str] = {}
        self.turn: dict[str, int] = {}
        self.last: dict[str, list[int]] = {}
        self.prefix_ok = True
        self.overrun = False

    async def generate(
        self, request_id: str, *, prompt_ids: list[int], sampling_params: dict[str, Any], **kwargs: Any
    ) -> TokenOutput:
        prompt = list(prompt_ids)
        if request_id not in self.task_of:
            text = self.tokenizer.decode(prompt)
            matches = [instruction for instruction in self.scripts if instruction in text]
            self.task_of[request_id] = max(matches, key=len)
            self.turn[request_id] = 0
        elif prompt[: len(self.last[request_id])] != self.last[request_id]:
            self.prefix_ok = False
        script = self.scripts[self.task_of[request_id]]
        index = self.turn[request_id]
        self.turn[request_id] += 1
        self.overrun |= index >= len(script)
        text = script[min(index, len(script) - 1)] + "<|im_end|>"
        token_ids = self.tokenizer.encode(text, add_special_tokens=False)
        self.last[request_id] = prompt + token_ids
        return TokenOutput(token_ids=token_ids, log_probs=[-0.5] * len(token_ids), stop_reason="completed")

    def requests_of(self, instruction: str) -> list[str]:
        return [request for request, task in self.task_of.items() if task == instruction]


class LocalActor:
    """A Ray actor handle stand-in: `handle.method.remote(...)` awaits the method in this process."""

    def __init__(self, target: Any) -> None:
        self.target = target

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.target, name)

        class Remote:
            @staticmethod
            def remote(*args: Any, **kwargs: Any) -> Awaitable[Any]:
                result: Awaitable[Any] = method(*args, **kwargs)
                return result

        return Remote()


def trainer_config(model: Path, domain: Path) -> Any:
    """verl's trainer config, composed by hydra from verl's own YAML as `verl.trainer.main_ppo` composes it."""
    overrides = [
        "algorithm.adv_estimator=grpo",
        f"data.train_files={domain / 'train.parquet'}",
        f"data.val_files={domain / 'test.parquet'}",
        f"data.max_prompt_length={PROMPT_LENGTH}",
        f"data.max_response_length={RESPONSE_LENGTH}",
        "data.return_raw_chat=True",
        f"actor_rollout_ref.model.path={model}",
        "actor_rollout_ref.rollout.name=vllm",
        "actor_rollout_ref.rollout.mode=async",
        "actor_rollout_ref.rollout.multi_turn.enable=True",
        f"actor_rollout_ref.rollout.multi_turn.tool_config_path={domain / 'tool_config.yaml'}",
        "actor_rollout_ref.rollout.multi_turn.format=hermes",
        "actor_rollout_ref.rollout.multi_turn.max_assistant_turns=16",
        "actor_rollout_ref.rollout.multi_turn.max_tool_response_length=65536",
        f"actor_rollout_ref.rollout.agent.agent_loop_config_path={domain / 'agent_loop.yaml'}",
        "actor_rollout_ref.rollout.agent.default_agent_loop=envforge_agent",
        f"reward.custom_reward_function.path={verl_reward.__file__}",
        "reward.custom_reward_function.name=compute_score",
    ]
    config_dir = Path(verl.__file__).parent / "trainer" / "config"
    with initialize_config_dir(config_dir=str(config_dir), version_base=None):
        return compose(config_name="ppo_trainer", overrides=overrides)


def check_tools(tool_config: Path) -> dict[str, Any]:
    """Every exported tool through verl's loader: an EnvforgeTool whose schema kept what a model needs."""
    declared = yaml.safe_load(tool_config.read_text())["tools"]
    tools = initialize_tools_from_config(str(tool_config))
    mismatches: list[str] = []
    dropped: set[str] = set()
    kept = {"type", "description", "enum"}
    for entry, tool in zip(declared, tools, strict=True):
        function = entry["tool_schema"]["function"]
        schema = tool.tool_schema
        if not isinstance(tool, EnvforgeTool) or not isinstance(schema, OpenAIFunctionToolSchema):
            mismatches.append(f"{function['name']}: {type(tool).__name__}")
            continue
        dumped = schema.model_dump(exclude_unset=True, exclude_none=True)["function"]
        parameters = function["parameters"]
        expected = {
            "name": function["name"],
            "description": function["description"],
            "required": parameters.get("required", []),
            "properties": {
                name: {key: value for key, value in spec.items() if key in kept}
                for name, spec in parameters["properties"].items()
            },
        }
        got = {
            "name": tool.name,
            "description": dumped["description"],
            "required": dumped["parameters"].get("required", []),
            "properties": dumped["parameters"]["properties"],
        }
        if got != expected:
            mismatches.append(f"{function['name']}: {got} != {expected}")
        for spec in parameters["properties"].values():
            dropped |= set(spec) - kept
        dropped |= set(parameters) - {"type", "properties", "required"}
    return {
        "count": len(tools),
        "declared": len(declared),
        "names": len({tool.name for tool in tools}),
        "mismatches": mismatches,
        "dropped_keywords": sorted(dropped),
    }


def pick_rows(dataset: Any, package: EnvPackage) -> list[dict[str, Any]]:
    """The first rows of each task kind (a read task with an expected answer among them)."""
    picked: list[dict[str, Any]] = []
    counts: dict[str, int] = {}
    for index in range(len(dataset)):
        row = dataset[index]
        task = package.task(row["reward_model"]["ground_truth"])
        if task.kind == "read" and task.expected_answer is None:
            continue
        if counts.get(task.kind, 0) < TASKS_PER_KIND:
            counts[task.kind] = counts.get(task.kind, 0) + 1
            picked.append(row)
    return picked


def make_batch(rows: list[dict[str, Any]], agent_name: str) -> DataProto:
    """A generation batch as the trainer hands it to the agent loop workers (dataset columns plus uid)."""
    batch = DataProto.from_single_dict(collate_fn(rows))
    batch.non_tensor_batch["uid"] = np.array([uuid4().hex for _ in rows], dtype=object)
    batch.non_tensor_batch["agent_name"] = np.array([agent_name] * len(rows), dtype=object)
    batch.meta_info["global_steps"] = 1
    return batch


def sample_kwargs(batch: DataProto, index: int) -> dict[str, Any]:
    """What `AgentLoopWorker.generate_sequences` passes to `_run_agent_loop` for one sample."""
    return {key: value[index] for key, value in batch.non_tensor_batch.items()}


async def run_loop(worker: Any, server: ScriptedServer, kwargs: dict[str, Any]) -> Any:
    """`AgentLoopWorker._run_agent_loop` without the tracing: build the loop with hydra and run it."""
    agent_name = kwargs.pop("agent_name")
    loop = instantiate(
        config=_agent_loop_registry[agent_name],
        trainer_config=DictConfigWrap(config=worker.config),
        server_manager=server,
        tokenizer=worker.tokenizer,
        processor=worker.processor,
        hf_model_type=worker.hf_model_type,
        dataset_cls=worker.dataset_cls,
        data_config=DictConfigWrap(worker.config.data),
        tools=ToolListWrap(worker.tools),
    )
    return await loop.run(dict(SAMPLING), **kwargs)


def instruction(kwargs: dict[str, Any]) -> str:
    return str(next(message["content"] for message in kwargs["raw_prompt"] if message["role"] == "user"))


def mask_summary(tokenizer: Any, output: Any) -> dict[str, Any]:
    """Token counts of one `AgentLoopOutput`, and how the first environment turn starts (after `<|im_end|>`)."""
    mask = list(output.response_mask)
    first_env = next((index for index, bit in enumerate(mask) if bit == 0), len(mask))
    after_model = mask.index(1, first_env) if 1 in mask[first_env:] else len(mask)
    return {
        "response_tokens": len(output.response_ids),
        "mask_tokens": len(mask),
        "model_tokens": sum(mask),
        "env_tokens": len(mask) - sum(mask),
        "prompt_tokens": len(output.prompt_ids),
        "prompt_has_tools": all(tag in tokenizer.decode(output.prompt_ids) for tag in ("<tools>", '"cancel_order"')),
        "env_turn_start": tokenizer.decode(output.response_ids[first_env:after_model])[:24],
    }


async def custom_loop(worker: Any, batch: DataProto, tasks: list[TaskSpec]) -> list[dict[str, Any]]:
    """The exported `envforge_agent_single_turn` loop: the oracle script earns 1, answering at once earns 0."""
    tokenizer = worker.tokenizer
    results = []
    for index, task in enumerate(tasks):
        kwargs = sample_kwargs(batch, index)
        oracle = ScriptedServer(tokenizer, {instruction(kwargs): oracle_turns(task)})
        output = await run_loop(worker, oracle, dict(kwargs))
        idle = ScriptedServer(tokenizer, {instruction(kwargs): ["Done."]})
        idle_output = await run_loop(worker, idle, dict(kwargs))
        model_text = tokenizer.decode(
            [token for token, bit in zip(output.response_ids, output.response_mask, strict=True) if bit]
        )
        results.append(
            {
                "task_id": task.id,
                "kind": task.kind,
                "oracle_calls": len(task.oracle),
                "reward": output.reward_score,
                "acc": output.extra_fields.get("reward_extra_info", {}).get("acc"),
                "tool_calls": output.extra_fields.get("reward_extra_info", {}).get("tool_calls"),
                "num_turns": output.num_turns,
                **mask_summary(tokenizer, output),
                "model_text_is_script": model_text == "<|im_end|>".join(oracle_turns(task)) + "<|im_end|>",
                "prefix_ok": oracle.prefix_ok,
                "overrun": oracle.overrun,
                "idle_reward": idle_output.reward_score,
                "idle_tokens_match": len(idle_output.response_ids) == len(idle_output.response_mask),
            }
        )
    return results


async def conversation_loop(worker: Any, batch: DataProto, tasks: list[TaskSpec]) -> list[dict[str, Any]]:
    """The exported `envforge_agent` loop, with the scripted user: the model's side of the golden conversation
    earns 1, and the user's answers reach the model as environment tokens; answering at once earns 0."""
    tokenizer = worker.tokenizer
    results = []
    for index, task in enumerate(tasks):
        kwargs = sample_kwargs(batch, index)
        golden = ScriptedServer(tokenizer, {task.instruction: golden_turns(task)})
        output = await run_loop(worker, golden, dict(kwargs))
        idle = ScriptedServer(tokenizer, {task.instruction: ["Done."]})
        idle_output = await run_loop(worker, idle, dict(kwargs))
        response = tokenizer.decode(output.response_ids)
        prompt = tokenizer.decode(output.prompt_ids)
        info = output.extra_fields.get("reward_extra_info", {})
        results.append(
            {
                "task_id": task.id,
                "kind": task.kind,
                "holds_back": bool(task.scenario.details or task.scenario.which),
                "reward": output.reward_score,
                "acc": info.get("acc"),
                "user_turns": info.get("user_turns"),
                "user_messages": response.count("<|im_start|>user\n") - response.count("<|im_start|>user\n<tool_"),
                "prompt_is_opener": prompt.rstrip().endswith(f"{task.instruction}<|im_end|>\n<|im_start|>assistant"),
                "golden_turns": len(golden_turns(task)),
                "generations": golden.turn[next(iter(golden.task_of))],
                "response_tokens": len(output.response_ids),
                "mask_tokens": len(output.response_mask),
                "prefix_ok": golden.prefix_ok,
                "idle_reward": idle_output.reward_score,
                "idle_user_turns": idle_output.extra_fields.get("reward_extra_info", {}).get("user_turns"),
            }
        )
    return results


def tool_responses(text: str) -> list[str]:
    return [part.split("</tool_response>")[0].strip() for part in text.split("<tool_response>")[1:]]


async def stock_loop(worker: Any, batch: DataProto, tasks: list[TaskSpec], package: EnvPackage) -> list[dict[str, Any]]:
    """verl's stock `tool_agent` loop with the exported tools, scored by `verl_reward.compute_score`."""
    tokenizer = worker.tokenizer
    results = []
    for index, task in enumerate(tasks):
        kwargs = sample_kwargs(batch, index)
        kwargs["agent_name"] = "tool_agent"
        server = ScriptedServer(tokenizer, {instruction(kwargs): oracle_turns(task)})
        output = await run_loop(worker, server, dict(kwargs))
        solution = tokenizer.decode(output.response_ids, skip_special_tokens=True)
        score = compute_score(
            data_source=kwargs["data_source"],
            solution_str=solution,
            ground_truth=kwargs["reward_model"]["ground_truth"],
            # As verl's reward manager does: the row's extra_info updated with the loop's extra_fields.
            extra_info={**kwargs["extra_info"], **output.extra_fields},
        )
        # The calls EnvforgeTool recorded as run, replayed in a fresh episode of the same task.
        episode = Episode(package, task.id)
        for call in json.loads(output.extra_fields["envforge_calls"]):
            episode.call(call["name"], call["arguments"])
        responses = tool_responses(tokenizer.decode(output.response_ids))
        results.append(
            {
                "task_id": task.id,
                "kind": task.kind,
                "score": score["score"],
                "replayed_calls": score["tool_calls"],
                "oracle_calls": len(task.oracle),
                "tool_responses": len(responses),
                "tool_errors": sum("error" in response.lower() for response in responses),
                **mask_summary(tokenizer, output),
                "episode_calls": len(episode.calls),
                "episode_failed_calls": episode.failed_calls,
                "episode_changed": bool(episode.session.history().writes),  # lookups are logged; writes change rows
                "prefix_ok": server.prefix_ok,
                "overrun": server.overrun,
                "episode_reward": episode.finish(answer(task)).reward,
            }
        )
    return results


async def read_back(worker: Any, batch: DataProto, tasks: list[TaskSpec], package: EnvPackage) -> dict[str, Any]:
    """Stock loop, one trajectory: cancel an order, then read it: the read sees the write (state carries)."""
    tokenizer = worker.tokenizer
    index, task = next((i, t) for i, t in enumerate(tasks) if t.oracle and t.oracle[-1].name == "cancel_order")
    order_id = task.oracle[-1].arguments["order_id"]
    get_order = ToolCall(name="get_order", arguments={"order_id": order_id})
    kwargs = sample_kwargs(batch, index)
    kwargs["agent_name"] = "tool_agent"
    server = ScriptedServer(tokenizer, {instruction(kwargs): oracle_turns(task, [get_order])})
    output = await run_loop(worker, server, dict(kwargs))
    last = json.loads(tool_responses(tokenizer.decode(output.response_ids))[-1])
    _, before = Episode(package, task.id).call("get_order", {"order_id": order_id})
    return {"task_id": task.id, "status_before": before.get("status"), "status_after": last.get("status")}


async def worker_batches(worker: Any, rows: list[dict[str, Any]], tasks: list[TaskSpec]) -> dict[str, Any]:
    """Whole batches through `AgentLoopWorker.generate_sequences`, for each loop and script: the reward lands
    in `rm_scores` (for `tool_agent` from verl's reward loop running `verl_reward.compute_score`)."""
    tokenizer = worker.tokenizer
    scripts = {
        "oracle": {task.instruction: oracle_turns(task) for task in tasks},
        "golden": {task.instruction: golden_turns(task) for task in tasks},
        "idle": {task.instruction: ["Done."] for task in tasks},
    }
    runs = {"envforge_agent": ("golden", "idle"), "tool_agent": ("oracle", "idle")}
    results: dict[str, Any] = {}
    for agent_name, names in runs.items():
        for script in names:
            by_instruction = scripts[script]
            worker.llm_client = server = ScriptedServer(tokenizer, by_instruction)
            # Fresh row objects per batch, as the dataloader gives each step: verl's reward manager updates
            # a row's extra_info in place with the loop's extra_fields.
            output = await worker.generate_sequences(make_batch(copy.deepcopy(rows), agent_name))
            mask, attention = output.batch["response_mask"], output.batch["attention_mask"][:, -RESPONSE_LENGTH:]
            results[f"{agent_name}/{script}"] = {
                "rm_scores": [round(float(score), 6) for score in output.batch["rm_scores"].sum(dim=-1).tolist()],
                "acc": [float(value) for value in output.non_tensor_batch.get("acc", [])],
                "mask_within_attention": bool(torch.all(mask <= attention)),
                "shape": list(output.batch["responses"].shape),
                "trajectories": len(server.task_of),
                "prefix_ok": server.prefix_ok,
            }
    return results


async def main() -> dict[str, Any]:
    domain = EXPORTS / "verl" / DOMAIN
    package = installed_package(f"envforge_env_{DOMAIN}")
    tool_config = domain / "tool_config.yaml"
    corpus = [json.dumps(entry) for entry in yaml.safe_load(tool_config.read_text())["tools"]]
    for task in package.tasks.values():
        corpus += [message["content"] for message in package.prompt(task.id)]
        corpus += oracle_turns(task) + golden_turns(task)
    timings: dict[str, float] = {"import_s": import_s}
    clock = time.perf_counter()
    model = build_model_dir(WORK / "model", corpus * 4)
    timings["tokenizer_s"] = time.perf_counter() - clock

    clock = time.perf_counter()
    config = trainer_config(model, domain)
    reward_worker = RewardLoopWorker(config)
    worker = AgentLoopWorker(config, ScriptedServer(None, {}), reward_loop_worker_handles=[LocalActor(reward_worker)])
    dataset = RLHFDataset(data_files=[str(domain / "train.parquet")], tokenizer=worker.tokenizer, config=config.data)
    rows = pick_rows(dataset, package)
    tasks = [package.task(row["reward_model"]["ground_truth"]) for row in rows]
    batch = make_batch(rows, "envforge_agent_single_turn")
    conversation_batch = make_batch(rows, "envforge_agent")
    timings["setup_s"] = time.perf_counter() - clock

    summary: dict[str, Any] = {
        "verl": verl.__version__,
        "transformers": transformers.__version__,
        "torch": torch.__version__,
        "envforge_installed": "site-packages" in str(envforge.__file__),
        "registry": sorted(_agent_loop_registry),
        "worker_tools": {"count": len(worker.tools), "classes": sorted({type(tool).__name__ for tool in worker.tools})},
        "tools": check_tools(tool_config),
        "run_kwargs": sorted(sample_kwargs(batch, 0)),
        "dataset_rows": len(dataset),
        "tools_kwargs_complete": all(
            set(row["tools_kwargs"]) == {tool.name for tool in package.env.toolgraph.tools} for row in rows
        ),
    }
    for name, step in (
        ("custom", custom_loop(worker, batch, tasks)),
        ("conversation", conversation_loop(worker, conversation_batch, tasks)),
        ("stock", stock_loop(worker, batch, tasks, package)),
        ("read_back", read_back(worker, batch, tasks, package)),
        ("batches", worker_batches(worker, rows, tasks)),
    ):
        clock = time.perf_counter()
        summary[name] = await step
        timings[f"{name}_s"] = time.perf_counter() - clock
    summary["timings"] = {key: round(value, 2) for key, value in timings.items()}
    return summary


if __name__ == "__main__":
    summary = asyncio.run(main())
    print(json.dumps(summary, default=str))

"""The trainer adapters on real exports: the TRL environment class from the wheel, verl's reward
function and verl's token-level agent loop, each driven to reward 1 by the oracle and to 0 without it."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from envforge.adapters.trl import environment_factories, verifier_reward
from envforge.adapters.verl_loop import Generation, PromptTooLongError, run_token_episode
from envforge.adapters.verl_reward import compute_score, final_answer
from envforge.ir.tasks import TaskSpec
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.users.scripted import ScriptedUser
from tests.conftest import BLUEPRINTS
from tests.users.agent_turns import agent_turns

DOMAINS = sorted(path.stem for path in BLUEPRINTS)


def _tasks(package: EnvPackage) -> list[TaskSpec]:
    return [package.task(task_id) for task_id in package.task_ids]


@pytest.mark.usefixtures("unpacked_wheels")
@pytest.mark.parametrize("domain", DOMAINS)
def test_trl_environment_class_runs_every_oracle_to_reward_one(
    packages: dict[str, Path], exports: Path, domain: str
) -> None:
    module = importlib.import_module(f"envforge_env_{domain}.trl_env")
    cls = module.ENVIRONMENT
    package = load_package(open_package(packages[domain]))
    tools = {name for name, _ in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")} - {"reset"}
    assert tools == {tool.name for tool in package.env.toolgraph.tools}
    rows = pq.read_table(exports / "trl" / domain / "train.parquet").to_pylist()
    environments, completions = [], []
    for row in rows:
        environment = cls()
        assert environment.reset(**row) is None
        task = package.task(row["task_id"])
        for call in task.oracle:
            result = json.loads(getattr(environment, call.name)(**call.arguments))
            assert "error" not in result, (task.id, call.name, result)
        environments.append(environment)
        completions.append([{"role": "assistant", "content": package.golden_message(task.id)}])
    assert verifier_reward(completions, environments) == [1.0] * len(rows)
    idle = [cls() for _ in rows]
    for environment, row in zip(idle, rows, strict=True):
        environment.reset(**row)
    assert verifier_reward([[{"role": "assistant", "content": "Sorry."}]] * len(rows), idle) == [0.0] * len(rows)


@pytest.mark.usefixtures("unpacked_wheels")
@pytest.mark.parametrize("domain", DOMAINS)
def test_trl_environment_with_the_user_plays_every_golden_conversation_to_reward_one(
    packages: dict[str, Path], exports: Path, domain: str
) -> None:
    """The rollout starts from the `opening` column; each message of the golden conversation but the last goes to
    the scripted user through `send_message_to_user`, whose replies hold what the user kept back; the last is the
    completion's final message, as in a TRL rollout."""
    from transformers.utils.chat_template_utils import get_json_schema

    cls = importlib.import_module(f"envforge_env_{domain}.trl_env").ENVIRONMENT_WITH_USER
    package = load_package(open_package(packages[domain]))
    tools = {name for name, _ in inspect.getmembers(cls, inspect.isfunction) if not name.startswith("_")} - {"reset"}
    assert tools == {tool.name for tool in package.env.toolgraph.tools} | {"send_message_to_user"}
    schema = get_json_schema(cls().send_message_to_user)["function"]
    assert schema["parameters"]["required"] == ["message"] and "customer" in schema["description"]
    rows = pq.read_table(exports / "trl" / domain / "train.parquet").to_pylist()
    environments, completions, replies = [], [], []
    for row in rows:
        task = package.task(row["task_id"])
        assert row["opening"] == package.prompt(task.id)
        environment = cls()
        assert environment.reset(**row) is None
        turns = agent_turns(package, task)
        for index, turn in enumerate(turns):
            for call in turn.calls:
                result = json.loads(getattr(environment, call.name)(**call.arguments))
                assert "error" not in result, (task.id, call.name, result)
            if index < len(turns) - 1:
                replies.append(asyncio.run(environment.send_message_to_user(turn.text)))
        environments.append(environment)
        completions.append([{"role": "assistant", "content": turns[-1].text}])
    assert verifier_reward(completions, environments) == [1.0] * len(rows)
    assert replies, f"no {domain} task needs the user's answer"
    liars = [cls() for _ in rows]
    for environment, row in zip(liars, rows, strict=True):
        environment.reset(**row)
        asyncio.run(environment.send_message_to_user("All done, I have made the changes you asked for."))
    lies = [[{"role": "assistant", "content": "Done."}]] * len(rows)
    assert verifier_reward(lies, liars) == [0.0] * len(rows)


@pytest.mark.usefixtures("unpacked_wheels")
def test_a_suite_maps_environment_names_to_classes() -> None:
    factories = environment_factories(*(f"envforge_env_{domain}" for domain in DOMAINS))
    assert sorted(factories) == DOMAINS
    assert factories["retail"].__name__ == "RetailEnvironment"
    with_user = environment_factories(*(f"envforge_env_{domain}" for domain in DOMAINS), user=True)
    assert with_user["retail"].__name__ == "RetailEnvironmentWithUser"


def _hermes(name: str, arguments: dict[str, Any]) -> str:
    return "<tool_call>\n" + json.dumps({"name": name, "arguments": arguments}) + "\n</tool_call>"


@pytest.mark.usefixtures("unpacked_wheels")
@pytest.mark.parametrize("domain", DOMAINS)
def test_verl_reward_replays_the_decoded_rollout(packages: dict[str, Path], domain: str) -> None:
    package = load_package(open_package(packages[domain]))
    extra_info = {"env_module": f"envforge_env_{domain}"}
    for task in _tasks(package):
        turns = []
        replay = Session(package.env)
        for call in task.oracle:
            _, result = replay.call_tool(call.name, call.arguments)
            turns.append(
                f"{_hermes(call.name, call.arguments)}\nuser\n<tool_response>\n{json.dumps(result)}\n</tool_response>\n"
            )
        answer = f"assistant\n{package.golden_message(task.id)}"
        score = compute_score(package.env_id, "".join(turns) + answer, task.id, extra_info)
        assert score["score"] == 1.0 and score["tool_calls"] == len(task.oracle), task.id
        recorded = {**extra_info, "envforge_calls": json.dumps([c.model_dump(mode="json") for c in task.oracle])}
        assert compute_score(package.env_id, answer, task.id, recorded)["score"] == 1.0
        # The same calls without the final message: tool responses never count as the answer, nor as telling the
        # user what was done.
        silent = compute_score(package.env_id, "".join(turns), task.id, extra_info)
        assert silent["score"] == 0.0, task.id
        if task.expected_answer is None:
            assert compute_score(package.env_id, answer, task.id, extra_info)["score"] == 0.0


def test_final_answer_is_the_text_after_the_last_tool_block() -> None:
    assert (
        final_answer('<tool_call>{"name": "a"}</tool_call>user\n<tool_response>42</tool_response>\nassistant\nIt is 7.')
        == "It is 7."
    )
    assert final_answer("It is 7.") == "It is 7."


class CharTokenizer:
    """A stand-in for a Hugging Face tokenizer (one token per character, a ChatML template with tools).

    The real tokenizers need transformers and a model folder, which only the slow training test installs;
    this one exercises the loop's token bookkeeping exactly, because every character is visible.
    """

    def apply_chat_template(self, conversation: Any, **kwargs: Any) -> Any:
        tools, add_generation_prompt = kwargs.get("tools"), kwargs.get("add_generation_prompt", False)
        assert kwargs.get("tokenize") is False
        text = ""
        for message in conversation:
            content = message["content"]
            if message["role"] == "system" and tools:
                content += "\n<tools>" + json.dumps(tools) + "</tools>"
            role = "user" if message["role"] == "tool" else message["role"]
            if message["role"] == "tool":
                content = f"<tool_response>{content}</tool_response>"
            text += f"<|im_start|>{role}\n{content}<|im_end|>\n"
        return text + ("<|im_start|>assistant\n" if add_generation_prompt else "")

    def encode(self, text: str, add_special_tokens: bool = False) -> list[int]:
        return [ord(character) for character in text]

    def decode(self, token_ids: list[int], skip_special_tokens: bool = True) -> str:
        return "".join(chr(token) for token in token_ids)


def _scripted_model(
    tokenizer: CharTokenizer, turns: list[str], log_prob: float | None = None
) -> tuple[Callable[[list[int]], Awaitable[Generation]], list[list[int]]]:
    """A model that says `turns` in order, one per generation, and the token ids it generated so far."""
    generated: list[list[int]] = []

    async def generate(prompt_ids: list[int]) -> Generation:
        output = tokenizer.encode(turns[len(generated)])
        generated.append(output)
        return Generation(output, None if log_prob is None else [log_prob] * len(output))

    return generate, generated


@pytest.mark.parametrize("domain", DOMAINS)
def test_verl_token_loop_owns_the_state_and_masks_what_the_environment_added(
    packages: dict[str, Path], domain: str
) -> None:
    package = load_package(open_package(packages[domain]))
    tokenizer = CharTokenizer()
    for task in _tasks(package)[:10]:
        turns = [_hermes(call.name, call.arguments) for call in task.oracle] + [package.golden_message(task.id)]
        generate, generated = _scripted_model(tokenizer, turns, log_prob=-0.5)
        # One token per character makes long responses: lift the length limit (tested below).
        episode = asyncio.run(
            run_token_episode(package, task.id, tokenizer, generate, max_turns=len(turns), max_response_tokens=10**7)
        )
        assert episode.verdict.reward == 1.0 and episode.tool_calls == len(task.oracle), episode.verdict.reasons
        model_tokens = [token for token, mask in zip(episode.response_ids, episode.response_mask, strict=True) if mask]
        assert model_tokens == [token for output in generated for token in output]
        added = tokenizer.decode([t for t, m in zip(episode.response_ids, episode.response_mask, strict=True) if not m])
        assert added.count("<tool_response>") == len(task.oracle) and "error" not in added
        # The model stopped before its end-of-turn marker; the environment closes the turn exactly as the template does.
        assert added.startswith("<|im_end|>\n<|im_start|>user\n<tool_response>")
        assert tokenizer.decode(episode.prompt_ids).endswith("<|im_start|>assistant\n")
        assert episode.response_logprobs == [-0.5 if bit else 0.0 for bit in episode.response_mask]


@pytest.mark.parametrize("domain", DOMAINS)
def test_verl_token_loop_with_the_scripted_user_asks_and_is_answered(packages: dict[str, Path], domain: str) -> None:
    """The model (scripted) plays the golden conversation; the loop's scripted user answers each message, and its
    replies are environment tokens (mask 0) in the response."""
    package = load_package(open_package(packages[domain]))
    tokenizer = CharTokenizer()
    holding = 0
    for task in _tasks(package)[:10]:
        turns = [
            output
            for turn in agent_turns(package, task)
            for output in [*(_hermes(call.name, call.arguments) for call in turn.calls), turn.text]
        ]
        generate, _ = _scripted_model(tokenizer, turns)
        episode = asyncio.run(
            run_token_episode(
                package,
                task.id,
                tokenizer,
                generate,
                user=ScriptedUser(),
                max_turns=len(turns),
                max_response_tokens=10**7,
            )
        )
        assert episode.verdict.reward == 1.0, (task.id, episode.verdict.reasons)
        prompt = tokenizer.decode(episode.prompt_ids)
        assert prompt.endswith(f"<|im_start|>user\n{task.instruction}<|im_end|>\n<|im_start|>assistant\n")
        added = tokenizer.decode([t for t, m in zip(episode.response_ids, episode.response_mask, strict=True) if not m])
        assert added.count("<|im_start|>user\n") == added.count("<tool_response>") + episode.user_turns
        if task.scenario.details or task.scenario.which:
            holding += 1
            assert episode.user_turns >= 1, task.id
            # What the user held back reaches the model only in the user's replies, never in the prompt.
            assert all(str(value) not in prompt for value in task.scenario.which.values())
    assert holding, f"no {domain} task holds anything back"


def test_verl_token_loop_stops_at_the_response_limit(retail_package: Path) -> None:
    package = load_package(open_package(retail_package))
    task = _tasks(package)[0]
    tokenizer = CharTokenizer()
    call = task.oracle[0]

    async def generate(prompt_ids: list[int]) -> Generation:
        return Generation(tokenizer.encode(_hermes(call.name, call.arguments)))

    episode = asyncio.run(
        run_token_episode(package, task.id, tokenizer, generate, max_turns=50, max_response_tokens=500)
    )
    assert len(episode.response_ids) == len(episode.response_mask) == 500
    assert episode.verdict.reward == 0.0 and 1 <= episode.tool_calls < 50 and episode.response_logprobs is None
    with pytest.raises(PromptTooLongError, match=r"raise data.max_prompt_length to at least \d+"):
        asyncio.run(run_token_episode(package, task.id, tokenizer, generate, max_prompt_tokens=100))


@pytest.mark.usefixtures("unpacked_wheels")
def test_a_curriculum_narrows_the_tools_and_shaping_counts_what_the_environment_accepted(
    packages: dict[str, Path],
) -> None:
    from envforge.adapters.trl import tool_use_reward, with_tools

    retail = importlib.import_module("envforge_env_retail.trl_env").ENVIRONMENT
    narrow = with_tools(retail, ["find_customer_by_email", "list_orders"])
    assert {name for name, _ in inspect.getmembers(narrow, inspect.isfunction) if not name.startswith("_")} == {
        "find_customer_by_email",
        "list_orders",
        "reset",
    }
    with pytest.raises(ValueError, match="no tools drop_tables"):
        with_tools(retail, ["drop_tables"])
    package = load_package(open_package(packages["retail"]))
    task = next(task for task in _tasks(package) if task.oracle[0].name == "find_customer_by_email")
    environment: Any = narrow()
    environment.reset(task_id=task.id)
    assert "error" not in json.loads(environment.find_customer_by_email(**task.oracle[0].arguments))
    assert "error" in json.loads(environment.find_customer_by_email(email="nobody@example.invalid"))
    idle = narrow()
    idle.reset(task_id=task.id)
    assert tool_use_reward([[], []], [environment, idle]) == [pytest.approx(0.2), 0.0]


@pytest.mark.usefixtures("unpacked_wheels")
@pytest.mark.parametrize("domain", DOMAINS)
def test_every_trl_tool_method_has_the_schema_trl_reads(packages: dict[str, Path], domain: str) -> None:
    """TRL builds tool schemas with transformers' `get_json_schema`; it must accept every generated method."""
    from transformers.utils.chat_template_utils import get_json_schema

    environment = importlib.import_module(f"envforge_env_{domain}.trl_env").ENVIRONMENT()
    for tool in load_package(open_package(packages[domain])).env.toolgraph.tools:
        schema = get_json_schema(getattr(environment, tool.name))["function"]
        declared = tool.parameters
        assert schema["name"] == tool.name and schema["description"]
        assert set(schema["parameters"]["properties"]) == set(declared["properties"])
        assert set(schema["parameters"].get("required", [])) == set(declared.get("required", []))
        for name, argument in declared["properties"].items():
            if "enum" in argument:
                assert schema["parameters"]["properties"][name]["enum"] == argument["enum"]

"""An inspect_ai `Task` of an environment package: one sample per task, the tools bound to that sample's episode, and
the package's verifier as the scorer.

    inspect eval envforge/adapters/inspect_task.py@envforge_task -T package=generated/retail --model openai/gpt-4o

Each sample's input is the trainer prompt (`EnvPackage.trainer_prompt`): the policy, the user's request, and, where
the task holds facts back, the agent's question and the scripted user's answer, as the TRL and verl adapters give
them, since an inspect eval has no user to take turns. The agent then calls tools until it answers in text (or runs
out of turns); the score is the verifier's reward on what the episode's session logged and on the agent's messages.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from envforge.runtime.episode import EnvPackage, Episode, load_package, render_result
from envforge.runtime.opened_package import open_package

try:
    from inspect_ai import Task, task
    from inspect_ai.dataset import MemoryDataset, Sample
    from inspect_ai.model import ChatMessage, ChatMessageAssistant, ChatMessageSystem, ChatMessageUser
    from inspect_ai.scorer import Score, Target, mean, scorer
    from inspect_ai.solver import Generate, TaskState, solver
    from inspect_ai.tool import Tool, ToolDef, ToolParams
except ImportError:
    raise ModuleNotFoundError(
        "envforge.adapters.inspect_task needs inspect_ai; pip install 'envforge[inspect]' in its own venv",
        name="inspect_ai",
    ) from None

MAX_TURNS = 24
"""Model turns a sample may take: the rollout engine's limit, enough for the longest golden chain and retries."""

_MESSAGE_TYPES = {"system": ChatMessageSystem, "user": ChatMessageUser, "assistant": ChatMessageAssistant}


class _Play(NamedTuple):
    """One sample's episode, and where the agent's own messages start in the conversation."""

    episode: Episode
    first_agent_message: int


@task
def envforge_task(
    package: str | Path | EnvPackage, task_ids: Sequence[str] | None = None, max_turns: int = MAX_TURNS
) -> Task:
    """The package's tasks (or `task_ids` of them) as an inspect_ai Task; the score of a sample is its verdict's
    reward, with `passed`, the verdict's components and reasons in its metadata."""
    loaded = package if isinstance(package, EnvPackage) else load_package(open_package(Path(package)))
    chosen = [loaded.task(task_id).id for task_id in task_ids] if task_ids is not None else loaded.task_ids
    plays: dict[str, _Play] = {}
    return Task(
        name=loaded.env_id.replace("/", "-"),
        dataset=MemoryDataset([_sample(loaded, task_id) for task_id in chosen], name=loaded.env_id),
        solver=_play(loaded, plays, max_turns),
        scorer=_verdict(plays),
    )


def _sample(package: EnvPackage, task_id: str) -> Sample:
    messages: list[ChatMessage] = [
        _MESSAGE_TYPES[message["role"]](content=message["content"]) for message in package.trainer_prompt(task_id)
    ]
    return Sample(id=task_id, input=messages, metadata={"task_id": task_id, "env_id": package.env_id})


def _tools(episode: Episode) -> list[Tool]:
    """Every tool of the environment as an inspect tool that calls it in this episode's session."""
    tools = []
    for spec in episode.package.env.tool_list():
        function = spec["function"]
        tools.append(
            ToolDef(
                _bound(episode, str(function["name"])),
                name=str(function["name"]),
                description=str(function["description"]),
                parameters=_parameters(function["parameters"]),
            ).as_tool()
        )
    return tools


def _parameters(schema: dict[str, Any]) -> ToolParams:
    """The tool's JSON schema; inspect refuses a parameter without a description, which some filters lack, so those
    get their name in words."""
    properties = {
        name: {"description": name.replace("_", " "), **field} for name, field in schema.get("properties", {}).items()
    }
    return ToolParams.model_validate({**schema, "properties": properties})


def _bound(episode: Episode, name: str) -> Any:
    async def call(**kwargs: Any) -> str:
        _, result = episode.call(name, kwargs)
        return render_result(result)

    return call


@solver
def _play(package: EnvPackage, plays: dict[str, _Play], max_turns: int) -> Any:
    async def solve(state: TaskState, generate: Generate) -> TaskState:
        episode = Episode(package, str(state.metadata["task_id"]))
        plays[str(state.uuid)] = _Play(episode, len(state.messages))
        state.tools = _tools(episode)
        for _ in range(max_turns):
            state = await generate(state, tool_calls="single")
            if not state.output.message.tool_calls:
                break
        return state

    return solve


@scorer(metrics=[mean()])
def _verdict(plays: dict[str, _Play]) -> Any:
    async def score(state: TaskState, target: Target) -> Score:
        play = plays.pop(str(state.uuid))
        said = [
            message.text
            for message in state.messages[play.first_agent_message :]
            if isinstance(message, ChatMessageAssistant) and not message.tool_calls and message.text
        ]
        answer = said[-1] if said and not state.output.message.tool_calls else None
        verdict = play.episode.finish(answer, said)
        return Score(
            value=verdict.reward,
            answer=answer,
            explanation="; ".join(verdict.reasons) or "passed",
            metadata={"passed": verdict.passed, "components": verdict.components, "calls": len(play.episode.calls)},
        )

    return score

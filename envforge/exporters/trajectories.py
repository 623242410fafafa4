"""Oracle trajectories as OpenAI chat messages: the golden tool chain replayed for real, then judged.

Every trajectory is replayed in a fresh session and must pass the task's shipped verifier; an export
never ships a demonstration that its own environment would score 0. The agent's last messages are worded with
variety (`phrasing.varied`) before they are judged.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from envforge.errors import PackageError
from envforge.exporters.phrasing import varied
from envforge.ir.tasks import TaskSpec
from envforge.runtime.dialogue import Said, golden_dialogue
from envforge.runtime.episode import EnvPackage, Episode, render_result
from envforge.runtime.errors import refusal_of

Message = dict[str, Any]


@dataclass(frozen=True)
class Trajectory:
    """One demonstrated episode: the messages, the tools offered, and the task it solves."""

    env_id: str
    task: TaskSpec
    messages: list[Message]
    tools: list[dict[str, Any]]
    reward: float
    source: str = "oracle"
    components: dict[str, bool] = field(default_factory=dict)
    """The verdict's components (each holds for a shipped oracle), for a reader who wants to see what was judged."""


def tool_call_message(call_id: str, name: str, arguments: dict[str, Any]) -> Message:
    return {
        "role": "assistant",
        "tool_calls": [
            {
                "id": call_id,
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False, sort_keys=True)},
            }
        ],
    }


def oracle_trajectory(package: EnvPackage, task_id: str) -> Trajectory:
    """Replay the task's golden conversation (`golden_dialogue`: the agent's questions for what the user held back,
    the oracle's calls, what an honest agent says, and the user's answers and scripted turns) and record what the
    agent would have seen at each step."""
    episode = Episode(package, task_id)
    messages: list[Message] = list(package.prompt(task_id))
    said: list[str] = []
    index = 0
    for step in golden_dialogue(episode.task, package.env.blueprint):
        if isinstance(step, Said):
            text = varied(episode.task, package.env.blueprint, step.text) if step.role == "agent" else step.text
            messages.append({"role": "assistant" if step.role == "agent" else "user", "content": text})
            said += [text] if step.role == "agent" else []
            continue
        call_id = f"call_{index}"
        ok, result = episode.call(step.name, step.arguments)
        if not ok:
            raise PackageError(
                f"{package.path}: oracle call {index} ({step.name}) of task {task_id} was refused: "
                f"{refusal_of(result)['message']}; run `envforge check {package.path}`"
            )
        messages.append(tool_call_message(call_id, step.name, step.arguments))
        messages.append({"role": "tool", "tool_call_id": call_id, "name": step.name, "content": render_result(result)})
        index += 1
    verdict = episode.finish(said[-1], said)
    if not verdict.passed:
        raise PackageError(
            f"{package.path}: the oracle of task {task_id} fails its verifier ({'; '.join(verdict.reasons)}); "
            f"run `envforge check {package.path}`"
        )
    return Trajectory(
        package.env_id, episode.task, messages, package.env.tool_list(), verdict.reward, components=verdict.components
    )

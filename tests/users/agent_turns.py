"""The agent's turns of a task's golden conversation, for careful agents that talk to a user in the loop."""

from __future__ import annotations

from dataclasses import dataclass

from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.runtime.dialogue import golden_dialogue
from envforge.runtime.episode import EnvPackage


@dataclass(frozen=True)
class AgentTurn:
    """What the agent does between two user messages: its calls, then its message."""

    calls: list[ToolCall]
    text: str


def agent_turns(package: EnvPackage, task: TaskSpec) -> list[AgentTurn]:
    turns: list[AgentTurn] = []
    calls: list[ToolCall] = []
    for step in golden_dialogue(task, package.env.blueprint):
        if isinstance(step, ToolCall):
            calls.append(step)
        elif step.role == "agent":
            turns.append(AgentTurn(calls, step.text))
            calls = []
    assert not calls, f"{task.id}: the golden conversation ends with a call, not a message"
    return turns

"""Scripted agents that play a task's golden conversation under noise (`envforge.ir.noise`).

The careful agent recovers from everything noise does: it retries a retryable error and a read flagged as stale,
pages through a cut-off list, confirms the details the user stated before it uses them, and asks again when the
user answers another question. A `budget` caps the recoveries it makes (a hasty agent gives up sooner); past it
the agent goes on as if the call had worked, which is what an agent that ignores noise does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from envforge.ir.noise import NoiseProfile
from envforge.ir.tasks import TaskSpec, ToolCall, Verdict
from envforge.runtime.clarify import field_label, values
from envforge.runtime.episode import EnvPackage, Episode
from envforge.users.conversation import Conversation
from envforge.users.noise import SIDETRACK_OPENINGS, VAGUE, misstated
from envforge.users.scripted import ScriptedUser
from tests.users.agent_turns import agent_turns

MAX_PAGES = 50


@dataclass
class Budget:
    """Recoveries left to the agent."""

    left: float = math.inf

    def spend(self) -> bool:
        if self.left < 1:
            return False
        self.left -= 1
        return True


def careful_call(episode: Episode, call: ToolCall, budget: Budget, heard: dict[str, str]) -> None:
    """The call, with each stated detail as the agent heard it; retried, re-read and paged while the budget lasts."""
    arguments = {
        name: heard.get(value, value) if isinstance(value, str) else value for name, value in call.arguments.items()
    }
    for _ in range(MAX_PAGES):
        ok, result = episode.call(call.name, arguments)
        error = result.get("error") if not ok else None
        if isinstance(error, dict) and error.get("retryable") and budget.spend():
            continue
        if ok and "warning" in result and budget.spend():
            continue
        next_offset = result.get("next_offset") if ok else None
        if isinstance(next_offset, int) and budget.spend():
            arguments = {**arguments, "offset": next_offset}
            continue
        return
    raise AssertionError(f"{call.name}: still paging after {MAX_PAGES} calls")


def _stated(task: TaskSpec) -> list[tuple[str, str]]:
    return [
        (field, text)
        for field, value in task.scenario.known.items()
        if field not in ("first_name", "last_name")
        for text in values(value)[:1]
    ]


def _as_heard(text: str, opener: str) -> str:
    """A detail as the opener put it: rightly, wrongly (a correction is due), or only vaguely."""
    if text in opener:
        return text
    return misstated(text) if misstated(text) in opener else VAGUE


def _sidetracked(reply: str) -> bool:
    return reply.startswith(SIDETRACK_OPENINGS)


async def _say(conversation: Conversation, text: str, budget: Budget) -> str | None:
    reply = await conversation.say(text)
    while reply is not None and _sidetracked(reply) and budget.spend():
        reply = await conversation.say(f"Sorry, let me ask again. {text}")
    return reply


async def play(
    package: EnvPackage, task: TaskSpec, noise: NoiseProfile, seed: str, budget: float = math.inf
) -> tuple[Verdict, Conversation]:
    """The task's golden conversation under `noise` drawn from `seed`, with at most `budget` recoveries."""
    episode = Episode(package, task.id, noise=noise.episode(seed))
    conversation = Conversation(episode, ScriptedUser())
    left = Budget(budget)
    stated = _stated(task)
    heard = {text: _as_heard(text, conversation.turns[0].content) for _, text in stated}
    if noise.user and stated and left.spend():
        fields = " and ".join(field_label(field) for field, _ in stated)
        question = f"Before I look anything up, could you confirm your {fields}?"
        if await _say(conversation, question, left) is None:
            return conversation.finish(), conversation
        heard = {}
    for turn in agent_turns(package, task):
        for call in turn.calls:
            careful_call(episode, call, left, heard)
        if await _say(conversation, turn.text, left) is None:
            break
    return conversation.finish(), conversation

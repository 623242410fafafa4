"""What a user simulator is: the opener, then one reply per agent message, and no way to end the episode."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from envforge.ir.tasks import TaskSpec

STOP_MARKERS = ("###STOP###", "###TRANSFER###", "###OUT-OF-SCOPE###", "[END]", "[STOP]", "<|endoftext|>", "<|im_end|>")
"""Tokens other harnesses let a simulated user end an episode with. Here they are always a violation: the
harness ends an episode on state and the agent's final answer, never on the simulator's say-so."""


@dataclass(frozen=True)
class Turn:
    """One message of the conversation as the user sees it."""

    role: Literal["user", "agent"]
    """`user`: the simulator's own message; `agent`: an agent text message (tool calls are never shown)."""
    content: str


class UserSimulator(Protocol):
    """Plays the task's user. Replies only; whether the episode is over is the harness's decision."""

    version: str
    """Stamped into every trajectory, e.g. `scripted-2` or `persona-2+Qwen/Qwen3-8B`."""

    def opener(self, task: TaskSpec) -> str:
        """The first user message."""
        ...

    async def reply(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool, sample: int = 0) -> str:
        """The user's answer to the agent's last message (`turns[-1]`); `turns[0]` is the opener.

        `writes_done` says the harness found every write the task expects in the state (always True for
        read tasks). The answer is never empty and never carries a stop marker.
        """
        ...

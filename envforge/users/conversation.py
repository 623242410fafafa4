"""The user's side of an episode as every harness plays it: when a conversation is over, and a user in the loop
for trainers (verl's agent loop, TRL's environments) that answers the agent's messages as rollouts do.

A harness, not the simulator, ends an episode: when the agent's message finds the task done (writes in place, the
answer right) and calls for no scripted reaction, when a question task gets an answer that asks nothing back, or
when the user has replied as often as allowed. `envforge rollout` and the trainer adapters share `ending`, so a
model meets the same user in training as in evaluation.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from envforge.ir.noise import EXTRA_USER_TURNS
from envforge.ir.tasks import TaskSpec, Verdict
from envforge.runtime.episode import Episode
from envforge.users.base import Turn, UserSimulator
from envforge.users.fields import asks_user
from envforge.users.noise import NoisyUser
from envforge.users.script import due

MAX_USER_TURNS = 4
"""Simulator replies after the opener: a follow-up and the agent's questions about it, then a closing thanks."""

Ending = Literal["solved", "answered", "user_turn_limit"]
"""Why the harness ends a conversation after the agent's text message."""


def writes_done(verdict: Verdict) -> bool:
    """Whether the verdict found every write the task expects in the state (always so for a question task)."""
    return verdict.components.get("expected_changes_made", True)


def ending(
    task: TaskSpec, turns: Sequence[Turn], verdict: Verdict, *, user_turns: int, max_user_turns: int
) -> Ending | None:
    """Whether the conversation ends at the agent's last message (`turns[-1]`), judged by `verdict`; None: the user
    replies. A reaction the message calls for (a push back on a refusal) is part of the task, so a passing run
    that calls for one goes on."""
    if verdict.passed and due(task, turns) is None:
        return "solved"
    if task.kind == "read" and not asks_user(turns[-1].content):
        return "answered"
    if user_turns >= max_user_turns:
        return "user_turn_limit"
    return None


class Conversation:
    """One episode with a simulated user: the agent's tool calls go to `episode`, its text messages to the user.

    `say` returns the user's reply, or None once the harness ends the conversation (`ended` says why); `finish`
    judges the episode with every message the agent sent, its last as the answer.
    """

    def __init__(
        self, episode: Episode, user: UserSimulator, *, sample: int = 0, max_user_turns: int = MAX_USER_TURNS
    ) -> None:
        self.episode = episode
        noise = episode.noise
        # The episode's user noise garbles what the user says; the extra turns are what recovering from it costs.
        noisy = noise is not None and bool(noise.profile.user)
        self.user: UserSimulator = NoisyUser(user, noise) if noise is not None and noisy else user
        self.sample = sample
        self.max_user_turns = max_user_turns + (EXTRA_USER_TURNS if noisy else 0)
        self.turns: list[Turn] = [Turn(role="user", content=self.user.opener(episode.task))]
        self.user_turns = 0
        self.ended: Ending | None = None

    def opening(self) -> list[dict[str, str]]:
        """What the agent sees first: the policy as the system message and the user's opener."""
        return [
            {"role": "system", "content": self.episode.package.env.policy},
            {"role": "user", "content": self.turns[0].content},
        ]

    @property
    def agent_messages(self) -> list[str]:
        return [turn.content for turn in self.turns if turn.role == "agent"]

    async def say(self, text: str) -> str | None:
        """The agent's text message to the user: the user's reply, or None if the conversation is over."""
        if self.ended is not None:
            return None
        self.turns.append(Turn(role="agent", content=text))
        verdict = self.episode.judge(text, self.agent_messages)
        self.ended = ending(
            self.episode.task, self.turns, verdict, user_turns=self.user_turns, max_user_turns=self.max_user_turns
        )
        if self.ended is not None:
            return None
        reply = await self.user.reply(
            self.episode.task, self.turns, writes_done=writes_done(verdict), sample=self.sample
        )
        self.user_turns += 1
        self.turns.append(Turn(role="user", content=reply))
        return reply

    def finish(self, answer: str | None = None) -> Verdict:
        """The verdict on the whole conversation; `answer`, when given, is a last message the user never saw."""
        messages = self.agent_messages
        if answer is not None and (not messages or messages[-1] != answer):
            messages = [*messages, answer]
        return self.episode.finish(messages[-1] if messages else None, messages)

"""The record of one agent episode, as saved to `trajectories.jsonl`.

A trajectory holds everything needed to judge it again without the model: the messages, every tool
call with its result, the initial state's hash, the answer. `envforge reverify` recomputes verdicts
from these after a verifier change.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import Field, ValidationError

from envforge.errors import UserInputError
from envforge.ir.base import IRModel
from envforge.ir.noise import EpisodeNoise, NoiseProfile
from envforge.ir.tasks import ToolCall, Verdict
from envforge.runtime.tool_noise import NoiseEvent

FailureClass = Literal["model", "format", "infrastructure"]
Outcome = Literal["passed", "failed", "infrastructure"]
EndReason = Literal[
    "solved",
    "answered",
    "turn_limit",
    "user_turn_limit",
    "token_limit",
    "context_limit",
    "infrastructure",
]


class Failure(IRModel):
    """Why an episode did not earn reward 1, and whose fault that was."""

    cls: FailureClass
    """model: wrong answer, gave up, broke policy; format: unparseable tool calls; infrastructure: the endpoint."""
    reason: str
    """A stable code, e.g. `wrong_answer`, `gave_up`, `unparseable_calls`, `timeout`."""
    detail: str = ""


class ExecutedCall(IRModel):
    """A tool call the environment ran, and what came back."""

    name: str
    arguments: dict[str, Any]
    ok: bool
    result: dict[str, Any]
    error_code: str | None = None


class Timings(IRModel):
    wall_s: float = 0.0
    model_s: float = 0.0
    """Time spent waiting on the agent model (recorded latency for cached responses)."""
    env_s: float = 0.0
    """Tool dispatch, snapshots and verification: the environment's own overhead."""
    user_s: float = 0.0


class Tokens(IRModel):
    prompt: int = 0
    completion: int = 0
    requests: int = 0
    cached_requests: int = 0


class NoiseRecord(IRModel):
    """The noise an episode ran under: enough to draw the same noise again."""

    profile: NoiseProfile
    """At the level the episode ran at."""
    seed: str
    """The episode seed every draw hashes (`<task>:<sample>`)."""
    noisy: bool
    """Whether the episode fell in the profile's share of noisy episodes."""
    tool_events: list[str] = Field(default_factory=list)
    """Where tool noise struck: `<call index> <tool>: <kind>`."""
    curriculum: dict[str, Any] | None = None
    """The curriculum's state when the episode started (`envforge.runtime.curriculum`), if one ran."""


def noise_record(
    profile: NoiseProfile | None,
    seed: str,
    drawn: EpisodeNoise | None,
    events: Iterable[NoiseEvent],
    curriculum: dict[str, Any] | None = None,
) -> NoiseRecord | None:
    if profile is None:
        return None
    shown = [f"{event.call} {event.tool}: {event.kind}" for event in events]
    return NoiseRecord(profile=profile, seed=seed, noisy=drawn is not None, tool_events=shown, curriculum=curriculum)


class Trajectory(IRModel):
    """One episode of one model on one task."""

    schema_version: Literal[1] = 1
    env_id: str
    task_id: str
    sample: int
    """Which of the k attempts at this task this is."""
    attempt: int = 0
    """Infrastructure retries before this record (0 = first try)."""
    model: str
    sampling: dict[str, Any]
    simulator: str
    """Version of the user simulator that played the user."""
    messages: list[dict[str, Any]]
    """The conversation in OpenAI chat form, as the model saw it (malformed calls replaced by their error)."""
    calls: list[ExecutedCall] = Field(default_factory=list)
    answer: str | None = None
    """The agent's last text message: the final answer for question tasks."""
    initial_state: str = ""
    """Content hash of the initial state, so a replay can tell it starts from the same data."""
    ended: EndReason
    outcome: Outcome
    verdict: Verdict | None = None
    """None for infrastructure failures: the model was never judged."""
    failure: Failure | None = None
    format_errors: int = 0
    tool_errors: int = 0
    user_turns: int = 0
    simulator_interventions: list[str] = Field(default_factory=list)
    """Guard codes where the user simulator's own reply was replaced by a conforming one."""
    timings: Timings = Field(default_factory=Timings)
    tokens: Tokens = Field(default_factory=Tokens)
    noise: NoiseRecord | None = None
    """The noise profile and draws the episode ran under (None: a clean run)."""

    @property
    def reward(self) -> float | None:
        return self.verdict.reward if self.verdict is not None else None

    def tool_calls(self) -> list[ToolCall]:
        return [ToolCall(name=call.name, arguments=call.arguments) for call in self.calls]


def save_trajectories(path: Path, trajectories: Iterable[Trajectory]) -> None:
    """Write a JSONL file atomically (the old file stays whole until the new one is complete)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    with os.fdopen(handle, "w", encoding="utf-8") as out:
        for trajectory in trajectories:
            out.write(trajectory.model_dump_json() + "\n")
    os.replace(temporary, path)


def iter_trajectories(path: Path) -> Iterator[Trajectory]:
    """Read a trajectories JSONL file; a bad line is a one-line error naming the file and line."""
    if not path.is_file():
        raise UserInputError(f"{path}: no such trajectories file; produce one with `envforge rollout`")
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield Trajectory.model_validate(json.loads(line))
            except (json.JSONDecodeError, ValidationError) as exc:
                first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise UserInputError(f"{path}:{number}: not a trajectory record ({first})") from None


def load_trajectories(path: Path) -> list[Trajectory]:
    return list(iter_trajectories(path))

"""Judging stored trajectories again, without the model: after a verifier fix, rewards follow the fix.

Each trajectory's tool calls are replayed in a fresh session of the package, which must start from the
same initial state the episode saw; its final answer is judged by the package's current verifier.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from envforge.errors import UserInputError
from envforge.ir.display import SHOWN, Display
from envforge.ir.tasks import Transcript
from envforge.ir.verification import ValidationReport
from envforge.rollouts.failures import classify_failure
from envforge.rollouts.solvability import summarize_rollouts, write_rollout_report
from envforge.rollouts.trajectory import Trajectory, load_trajectories, save_trajectories
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tool_noise import NoisyTools


@dataclass
class ReverifyReport:
    """What changed when the trajectories were judged again."""

    trajectories: list[Trajectory]
    changed: list[tuple[str, int, float | None, float | None]] = field(default_factory=list)
    """(task id, sample, old reward, new reward) for every verdict that moved."""
    diverged: list[tuple[str, int, int]] = field(default_factory=list)
    """(task id, sample, call index) where a replayed call answered differently than in the episode."""
    saved: Path | None = None
    """The file the re-judged trajectories were saved to (`reverify_saved`); None when only judged in memory."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "trajectories": None if self.saved is None else str(self.saved),
            "judged": len(self.trajectories),
            "changed": self.changed,
            "diverged": self.diverged,
        }

    def display(self) -> Display:
        where = "" if self.saved is None else f" -> {self.saved}"
        changed = [
            f"  {task_id} sample {sample}: reward {old} -> {new}" for task_id, sample, old, new in self.changed[:SHOWN]
        ]
        return Display(
            lines=[
                f"re-judged {len(self.trajectories)} trajectories{where}",
                *changed,
                f"{len(self.changed)} verdicts changed; {len(self.diverged)} replays diverged",
            ]
        )


def agent_messages(trajectory: Trajectory) -> list[str]:
    """What the agent told the user, as the rollout judged it: each of its turns without a tool call."""
    return [
        str(message.get("content") or "")
        for message in trajectory.messages
        if message.get("role") == "assistant" and not message.get("tool_calls")
    ]


def reverify_trajectory(package: EnvPackage, trajectory: Trajectory) -> tuple[Trajectory, int | None]:
    """The trajectory with a fresh verdict, and the first call whose replayed result differs (if any)."""
    if trajectory.verdict is None:
        return trajectory, None
    if trajectory.task_id not in package.tasks:
        raise UserInputError(
            f"{package.path}: trajectory of task {trajectory.task_id} but the package has no such task; "
            "reverify against the package the rollouts were run on"
        )
    session = Session(package.env, package.task(trajectory.task_id).scenario.person)
    try:
        if trajectory.initial_state and session.state_hash() != trajectory.initial_state:
            raise UserInputError(
                f"{package.path}: the initial state differs from the one task {trajectory.task_id} was rolled out on; "
                "regenerate the package with the same blueprint, seed and rows"
            )
        diverged: int | None = None
        # The noise the episode ran under, drawn again: the same calls meet the same failures, pages and stale reads.
        noise = trajectory.noise
        tools = NoisyTools(session, noise.profile.episode(noise.seed) if noise is not None else None)
        for index, call in enumerate(trajectory.calls):
            ok, result = tools.call_tool(call.name, call.arguments)
            if diverged is None and (ok != call.ok or result != call.result):
                diverged = index
        transcript = Transcript(
            calls=trajectory.tool_calls(), answer=trajectory.answer, messages=agent_messages(trajectory)
        )
        verdict = package.verify(trajectory.task_id, session.history(), transcript)
    finally:
        session.close()
    write_tools = frozenset(name for name, tool in package.env.tools.items() if tool.kind == "write")
    failure = classify_failure(
        package.task(trajectory.task_id),
        verdict,
        trajectory.ended,
        trajectory.calls,
        trajectory.format_errors,
        write_tools,
    )
    updated = trajectory.model_copy(
        update={"verdict": verdict, "failure": failure, "outcome": "passed" if verdict.passed else "failed"}
    )
    return updated, diverged


def reverify(package: EnvPackage, trajectories: Sequence[Trajectory]) -> ReverifyReport:
    report = ReverifyReport(trajectories=[])
    for trajectory in trajectories:
        updated, diverged = reverify_trajectory(package, trajectory)
        report.trajectories.append(updated)
        if updated.reward != trajectory.reward:
            report.changed.append((trajectory.task_id, trajectory.sample, trajectory.reward, updated.reward))
        if diverged is not None:
            report.diverged.append((trajectory.task_id, trajectory.sample, diverged))
    return report


def reverify_saved(
    package: Path, trajectories: Path, out: Path | None = None, *, report: bool = False
) -> ReverifyReport:
    """Judge a trajectories file again and save the result to `out` (default: the file itself); with `report`,
    rewrite the package report's rollout section from the new verdicts, keeping its pass-rate band."""
    opened = open_package(package)
    result = reverify(load_package(opened), load_trajectories(trajectories))
    saved = out or trajectories
    save_trajectories(saved, result.trajectories)
    if report:
        # The band the report's rollouts were pooled by, kept when their verdicts are rewritten.
        current = ValidationReport.model_validate_json(opened.read("report.json")).rollouts
        band = current.keep_pass_rate if current is not None else (0.0, 1.0)
        k = max((t.sample for t in result.trajectories), default=0) + 1
        write_rollout_report(package, summarize_rollouts(result.trajectories, k, band))
    return replace(result, saved=saved)

"""Stored agent rollouts in an export: passing ones as SFT demonstrations beside the oracle ones (rejection
sampling), and every judged one in each task's pass rate per model, a difficulty a curriculum can sample by.

Each rollout is judged again under the package's current verifier (replayed in a fresh session, so a verifier fixed
since the rollout decides). A demonstration must pass, have written no unreadable call, and not repeat a
conversation already kept for the task. A pass rate counts every rollout the endpoint completed (an unreadable call
is the model's failure; an endpoint failure is nobody's and is left out).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from envforge.errors import UserInputError
from envforge.exporters.signals import PassRates
from envforge.exporters.trajectories import Trajectory
from envforge.hashing import canonical_json
from envforge.rollouts.reverify import reverify_trajectory
from envforge.rollouts.solvability import pass_at_k
from envforge.rollouts.trajectory import Trajectory as Rollout
from envforge.rollouts.trajectory import load_trajectories
from envforge.runtime.episode import EnvPackage


@dataclass(frozen=True)
class JudgedRollout:
    stored: Rollout
    passed: bool
    reward: float


def judge_rollouts(packages: Sequence[EnvPackage], files: Sequence[Path]) -> list[JudgedRollout]:
    """Every completed rollout in `files`, judged again by its package, in file order."""
    by_env = {package.env_id: package for package in packages}
    judged: list[JudgedRollout] = []
    for path in files:
        for stored in load_trajectories(path):
            package = by_env.get(stored.env_id)
            if package is None:
                raise UserInputError(
                    f"{path}: trajectories of {stored.env_id}, which is not among the exported packages "
                    f"({', '.join(sorted(by_env))}); export its package too or leave the file out"
                )
            if stored.verdict is None:
                continue
            again, _ = reverify_trajectory(package, stored)
            verdict = again.verdict
            judged.append(
                JudgedRollout(stored, verdict is not None and verdict.passed, verdict.reward if verdict else 0.0)
            )
    return judged


def rollout_demonstrations(
    packages: Sequence[EnvPackage], judged: Sequence[JudgedRollout]
) -> dict[str, list[Trajectory]]:
    """env id -> the kept demonstrations, in file order."""
    by_env = {package.env_id: package for package in packages}
    kept: dict[str, list[Trajectory]] = {package.env_id: [] for package in packages}
    seen: set[str] = set()
    for rollout in judged:
        stored = rollout.stored
        if not rollout.passed or stored.format_errors:
            continue
        fingerprint = canonical_json([stored.env_id, stored.task_id, stored.messages])
        if fingerprint in seen:
            continue
        seen.add(fingerprint)
        package = by_env[stored.env_id]
        kept[stored.env_id].append(
            Trajectory(
                env_id=stored.env_id,
                task=package.task(stored.task_id),
                messages=stored.messages,
                tools=package.env.tool_list(),
                reward=rollout.reward,
                source=f"rollout:{stored.model}",
            )
        )
    return kept


def pass_rates(judged: Sequence[JudgedRollout]) -> PassRates:
    """Each task's pass rate per model, models in name order."""
    counts: dict[tuple[str, str], dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    for rollout in judged:
        tally = counts[(rollout.stored.env_id, rollout.stored.task_id)][rollout.stored.model]
        tally[0] += 1
        tally[1] += int(rollout.passed)
    return {
        task: [
            {
                "model": model,
                "samples": samples,
                "passed": passed,
                "pass_at_1": round(pass_at_k(samples, passed, 1), 4),
                "pass_at_k": round(pass_at_k(samples, passed, samples), 4),
            }
            for model, (samples, passed) in sorted(models.items())
        ]
        for task, models in counts.items()
    }

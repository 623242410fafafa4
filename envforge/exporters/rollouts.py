"""Passing agent rollouts as SFT demonstrations, beside the oracle ones (rejection sampling).

A stored rollout joins the dataset only if it passes again under the package's current verifier (it is
replayed in a fresh session, so a verifier fixed since the rollout decides), it wrote no unreadable
call, and it is not a duplicate of a conversation already kept for the task.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from envforge.errors import UserInputError
from envforge.exporters.trajectories import Trajectory
from envforge.hashing import canonical_json
from envforge.rollouts.reverify import reverify_trajectory
from envforge.rollouts.trajectory import load_trajectories
from envforge.runtime.episode import EnvPackage


def rollout_demonstrations(packages: Sequence[EnvPackage], files: Sequence[Path]) -> dict[str, list[Trajectory]]:
    """env id -> the kept demonstrations, in file order."""
    by_env = {package.env_id: package for package in packages}
    kept: dict[str, list[Trajectory]] = {package.env_id: [] for package in packages}
    seen: set[str] = set()
    for path in files:
        for stored in load_trajectories(path):
            package = by_env.get(stored.env_id)
            if package is None:
                raise UserInputError(
                    f"{path}: trajectories of {stored.env_id}, which is not among the exported packages "
                    f"({', '.join(sorted(by_env))}); export its package too or leave the file out"
                )
            if stored.verdict is None or stored.format_errors:
                continue
            judged, _ = reverify_trajectory(package, stored)
            if judged.verdict is None or not judged.verdict.passed:
                continue
            fingerprint = canonical_json([stored.env_id, stored.task_id, stored.messages])
            if fingerprint in seen:
                continue
            seen.add(fingerprint)
            kept[stored.env_id].append(
                Trajectory(
                    env_id=stored.env_id,
                    task=package.task(stored.task_id),
                    messages=stored.messages,
                    tools=package.env.tool_list(),
                    reward=judged.verdict.reward,
                    source=f"rollout:{stored.model}",
                )
            )
    return kept

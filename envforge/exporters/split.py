"""Train/test split by task: a hash of (environment, task id), so a task keeps its split across reruns
and when other tasks are added or removed."""

from __future__ import annotations

import hashlib
from typing import Literal

Split = Literal["train", "test"]


def _fraction(env_id: str, task_id: str) -> float:
    digest = hashlib.sha256(f"{env_id}\0{task_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2**64


def split_tasks(env_id: str, task_ids: list[str], test_fraction: float) -> dict[str, Split]:
    """Each task's split. With two or more tasks, neither split is left empty."""
    fractions = {task_id: _fraction(env_id, task_id) for task_id in task_ids}
    splits: dict[str, Split] = {
        task_id: "test" if fraction < test_fraction else "train" for task_id, fraction in fractions.items()
    }
    if len(task_ids) >= 2 and test_fraction > 0:
        ordered = sorted(task_ids, key=lambda task_id: fractions[task_id])
        if "test" not in splits.values():
            splits[ordered[0]] = "test"
        if "train" not in splits.values():
            splits[ordered[-1]] = "train"
    return splits

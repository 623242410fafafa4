"""pass@k, pass^k and training pools (by a band of pass rates) from judged trajectories, and writing them into a
package's report."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from math import comb
from pathlib import Path

from envforge.errors import UserInputError
from envforge.ir.verification import Pool, RolloutSummary, TaskRollouts, ValidationReport
from envforge.package import update_package
from envforge.rollouts.trajectory import Trajectory


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased chance that at least one of k draws passes, from n episodes of which c passed."""
    if n == 0:
        return 0.0
    k = min(k, n)
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def pass_hat_k(n: int, c: int, k: int) -> float:
    """Chance that all of k draws pass (tau-bench's pass^k), from n episodes of which c passed."""
    if n == 0:
        return 0.0
    k = min(k, n)
    return comb(c, k) / comb(n, k)


def _pool(judged: int, passed: int, band: tuple[float, float]) -> Pool:
    if judged == 0:
        return "unjudged"
    if passed == 0:
        return "hard"
    rate = passed / judged
    if rate > band[1]:
        return "easy"
    if rate < band[0]:
        return "below_band"
    return "train"


def summarize_rollouts(
    trajectories: Sequence[Trajectory], k: int, keep_pass_rate: tuple[float, float] = (0.0, 1.0)
) -> RolloutSummary:
    """Per-task rates and pools, and the failure breakdown over every episode."""
    by_task: dict[str, list[Trajectory]] = defaultdict(list)
    for trajectory in trajectories:
        by_task[trajectory.task_id].append(trajectory)
    tasks: list[TaskRollouts] = []
    by_class: Counter[str] = Counter()
    by_reason: Counter[str] = Counter()
    for task_id in sorted(by_task):
        episodes = by_task[task_id]
        judged = [t for t in episodes if t.verdict is not None]
        passed = sum(1 for t in judged if t.verdict is not None and t.verdict.passed)
        failures: Counter[str] = Counter()
        for trajectory in episodes:
            if trajectory.failure is not None:
                failures[f"{trajectory.failure.cls}:{trajectory.failure.reason}"] += 1
                by_class[trajectory.failure.cls] += 1
                by_reason[f"{trajectory.failure.cls}:{trajectory.failure.reason}"] += 1
        n = len(judged)
        tasks.append(
            TaskRollouts(
                task_id=task_id,
                episodes=n,
                passed=passed,
                pass_at_1=round(pass_at_k(n, passed, 1), 4),
                pass_at_k=round(pass_at_k(n, passed, k), 4),
                pass_hat_k=round(pass_hat_k(n, passed, k), 4),
                infrastructure=len(episodes) - n,
                failures=dict(sorted(failures.items())),
                pool=_pool(n, passed, keep_pass_rate),
            )
        )
    pools: dict[str, list[str]] = defaultdict(list)
    for task in tasks:
        pools[task.pool].append(task.task_id)
    first = trajectories[0] if trajectories else None
    rated = [task for task in tasks if task.episodes]
    return RolloutSummary(
        model=first.model if first else "",
        simulator=first.simulator if first else "",
        k=k,
        keep_pass_rate=keep_pass_rate,
        episodes=len(trajectories),
        judged=sum(task.episodes for task in tasks),
        passed=sum(task.passed for task in tasks),
        mean_pass_at_1=_mean([task.pass_at_1 for task in rated]),
        mean_pass_at_k=_mean([task.pass_at_k for task in rated]),
        mean_pass_hat_k=_mean([task.pass_hat_k for task in rated]),
        failures_by_class=dict(sorted(by_class.items())),
        failures_by_reason=dict(sorted(by_reason.items())),
        pools={name: sorted(ids) for name, ids in sorted(pools.items())},
        prompt_tokens=sum(t.tokens.prompt for t in trajectories),
        completion_tokens=sum(t.tokens.completion for t in trajectories),
        cached_requests=sum(t.tokens.cached_requests for t in trajectories),
        requests=sum(t.tokens.requests for t in trajectories),
        tasks=tasks,
    )


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 4) if values else 0.0


def write_rollout_report(package: Path, summary: RolloutSummary) -> ValidationReport:
    """Put the summary into report.json and report.md, re-hash them in the manifest, and swap the folder."""
    return update_package(package, {"rollouts": summary})


def parse_band(value: str) -> tuple[float, float]:
    """`MIN:MAX` pass rates, e.g. `0.1:0.9`."""
    low, sep, high = value.partition(":")
    try:
        band = (float(low), float(high)) if sep else (float("nan"), float("nan"))
    except ValueError:
        band = (float("nan"), float("nan"))
    if not (0.0 <= band[0] <= band[1] <= 1.0):
        raise UserInputError(f"--keep-pass-rate: '{value}' is not MIN:MAX with 0 <= MIN <= MAX <= 1 (e.g. 0.1:0.9)")
    return band

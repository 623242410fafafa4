"""Rollout rows of `envforge bench`: what the environment costs inside real episodes, and throughput.

Runs real episodes against a live endpoint with the cache off. The environment's share of an episode is
its own time (dispatch, snapshots, verification) over the episode's wall time; throughput is measured at
each concurrency level against concurrency 1 in the same run.
"""

from __future__ import annotations

import asyncio
import math
import statistics
import time
from collections.abc import Sequence

from envforge.bench.report import BenchRow
from envforge.llm import InfrastructureError, LLMClient
from envforge.rollouts.episode import RolloutConfig
from envforge.rollouts.runner import RolloutPlan, run_rollouts
from envforge.rollouts.trajectory import Trajectory
from envforge.runtime.episode import EnvPackage
from envforge.users.scripted import ScriptedUser

ENV_SHARE_GOAL_PERCENT = 2.0
BENCH_CONFIG = RolloutConfig(max_turns=6, max_user_turns=1, max_tokens=128)
"""Short episodes: the figures are per step and per episode, so long ones only cost time."""


async def _level(
    package: EnvPackage, base_url: str, model: str, concurrency: int, episodes: int
) -> tuple[list[Trajectory], float]:
    tasks = package.task_ids[:episodes]
    client = LLMClient(base_url, model)
    plan = RolloutPlan(task_ids=tasks, k=math.ceil(episodes / len(tasks)), concurrency=concurrency)
    started = time.perf_counter()
    try:
        trajectories = await run_rollouts(package, client, ScriptedUser(), plan, BENCH_CONFIG)
    finally:
        await client.close()
    return trajectories, time.perf_counter() - started


def bench_rollouts(
    package: EnvPackage, base_url: str, model: str, *, concurrencies: Sequence[int] = (1, 8, 32), episodes: int = 8
) -> list[BenchRow]:
    """The environment's share of episode time, and episodes per minute at each concurrency."""
    levels: dict[int, tuple[list[Trajectory], float]] = {}
    for concurrency in concurrencies:
        count = max(episodes, concurrency)
        levels[concurrency] = asyncio.run(_level(package, base_url, model, concurrency, count))
    every = [t for trajectories, _ in levels.values() for t in trajectories if t.outcome != "infrastructure"]
    if not every:
        raise InfrastructureError(f"{base_url}: every benchmark episode failed on the endpoint; is it serving {model}?")
    shares = [100 * t.timings.env_s / t.timings.wall_s for t in every if t.timings.wall_s > 0]
    steps = [max(1, t.tokens.requests) for t in every]
    env_per_step = [1000 * t.timings.env_s / s for t, s in zip(every, steps, strict=True)]
    model_per_step = [1000 * t.timings.model_s / s for t, s in zip(every, steps, strict=True)]
    rows = [
        BenchRow(
            key="rollout_env_share",
            measure="environment share of episode wall time",
            unit="%",
            median=statistics.median(shares),
            p95=_p95(shares),
            baseline="model share (100 - environment)",
            baseline_median=100 - statistics.median(shares),
            baseline_p95=None,
            samples=len(shares),
            baseline_samples=len(shares),
            goal=ENV_SHARE_GOAL_PERCENT,
            note=f"environment {statistics.median(env_per_step):.3f} ms per step beside the model's "
            f"{statistics.median(model_per_step):.0f} ms",
        )
    ]
    base_trajectories, base_wall = levels[concurrencies[0]]
    base_per_episode = base_wall / len(base_trajectories)
    for concurrency, (trajectories, wall) in levels.items():
        per_episode = wall / len(trajectories)
        rows.append(
            BenchRow(
                key=f"rollout_c{concurrency}",
                measure=f"wall time per episode at concurrency {concurrency}",
                unit="s",
                median=per_episode,
                p95=None,
                baseline=f"concurrency {concurrencies[0]}",
                baseline_median=base_per_episode,
                baseline_p95=None,
                samples=len(trajectories),
                baseline_samples=len(base_trajectories),
                note=f"{60 / per_episode:.1f} episodes/min; "
                f"{sum(t.outcome == 'infrastructure' for t in trajectories)} infrastructure failures",
            )
        )
    return rows


def _p95(values: list[float]) -> float | None:
    return statistics.quantiles(values, n=20, method="inclusive")[18] if len(values) > 1 else None

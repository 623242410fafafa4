"""Many episodes at once: k samples per task under bounded concurrency, with infrastructure retries."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from envforge.llm import LLMClient
from envforge.rollouts.episode import EpisodeRunner, RolloutConfig
from envforge.rollouts.trajectory import Trajectory
from envforge.runtime.curriculum import Curriculum
from envforge.runtime.episode import EnvPackage
from envforge.users.base import UserSimulator

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class RolloutPlan:
    """Which episodes to run and how hard to push the endpoint."""

    task_ids: Sequence[str]
    k: int = 1
    concurrency: int = 8
    infra_retries: int = 2
    """Extra attempts for an episode that ended on an infrastructure failure."""

    def episodes(self) -> list[tuple[str, int]]:
        """Every (task, sample) to run, in the order the results come back."""
        return [(task_id, sample) for task_id in self.task_ids for sample in range(self.k)]


async def run_episode(
    runner: EpisodeRunner, task_id: str, sample: int, infra_retries: int, curriculum: Curriculum | None = None
) -> Trajectory:
    """One episode, run again while it ends on an infrastructure failure, up to `infra_retries` times; under a
    curriculum, at its current level."""
    noise = curriculum.current() if curriculum is not None else None
    state = curriculum.state() if curriculum is not None else None
    trajectory = await runner.run(task_id, sample, noise=noise, curriculum=state)
    for attempt in range(1, infra_retries + 1):
        if trajectory.outcome != "infrastructure":
            break
        log.warning("%s sample %d: %s; retrying", task_id, sample, trajectory.failure)
        trajectory = await runner.run(task_id, sample, attempt=attempt, noise=noise, curriculum=state)
    return trajectory


async def run_rollouts(
    package: EnvPackage,
    client: LLMClient,
    user: UserSimulator,
    plan: RolloutPlan,
    config: RolloutConfig | None = None,
    on_done: Callable[[Trajectory], None] | None = None,
    curriculum: Curriculum | None = None,
) -> list[Trajectory]:
    """Run k episodes per task; results come back ordered by (task, sample) whatever finished first.

    Under a curriculum the episodes run in waves of its window: a wave runs at one level, and its outcomes, taken
    in (task, sample) order, decide the next wave's level, so concurrency never changes which level an episode
    meets."""
    runner = EpisodeRunner(package, client, user, config)
    gate = asyncio.Semaphore(plan.concurrency)

    async def one(task_id: str, sample: int) -> Trajectory:
        async with gate:
            trajectory = await run_episode(runner, task_id, sample, plan.infra_retries, curriculum)
        if on_done is not None:
            on_done(trajectory)
        return trajectory

    episodes = plan.episodes()
    if curriculum is None:
        return list(await asyncio.gather(*(one(task_id, sample) for task_id, sample in episodes)))
    results: list[Trajectory] = []
    for start in range(0, len(episodes), curriculum.window):
        wave = await asyncio.gather(
            *(one(task_id, sample) for task_id, sample in episodes[start : start + curriculum.window])
        )
        for trajectory in wave:
            if trajectory.outcome != "infrastructure":
                curriculum.record(trajectory.outcome == "passed")
        results += wave
    return results

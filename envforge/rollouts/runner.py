"""Many episodes at once: k samples per task under bounded concurrency, with infrastructure retries."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from envforge.llm import LLMClient
from envforge.rollouts.episode import EpisodeRunner, RolloutConfig
from envforge.rollouts.trajectory import Trajectory
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


async def run_episode(runner: EpisodeRunner, task_id: str, sample: int, infra_retries: int) -> Trajectory:
    """One episode, run again while it ends on an infrastructure failure, up to `infra_retries` times."""
    trajectory = await runner.run(task_id, sample)
    for attempt in range(1, infra_retries + 1):
        if trajectory.outcome != "infrastructure":
            break
        log.warning("%s sample %d: %s; retrying", task_id, sample, trajectory.failure)
        trajectory = await runner.run(task_id, sample, attempt=attempt)
    return trajectory


async def run_rollouts(
    package: EnvPackage,
    client: LLMClient,
    user: UserSimulator,
    plan: RolloutPlan,
    config: RolloutConfig | None = None,
    on_done: Callable[[Trajectory], None] | None = None,
) -> list[Trajectory]:
    """Run k episodes per task; results come back ordered by (task, sample) whatever finished first."""
    runner = EpisodeRunner(package, client, user, config)
    gate = asyncio.Semaphore(plan.concurrency)

    async def one(task_id: str, sample: int) -> Trajectory:
        async with gate:
            trajectory = await run_episode(runner, task_id, sample, plan.infra_retries)
        if on_done is not None:
            on_done(trajectory)
        return trajectory

    jobs = [one(task_id, sample) for task_id, sample in plan.episodes()]
    return list(await asyncio.gather(*jobs))

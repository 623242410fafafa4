"""Rollouts on Ray (`--executor ray`): the episodes spread over Ray actors, the trajectories of a local run.

Each actor loads the package once and holds its own clients, response cache and user simulator, built from the
same options as a local run's; an episode depends only on its (task, sample) and on what the cache holds, so where
it runs changes nothing the user sees but its timings.
"""

from __future__ import annotations

import os
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from envforge.rollouts.clients import api_key, build_clients, cache_folder, rollout_config
from envforge.rollouts.episode import EpisodeRunner
from envforge.rollouts.options import RolloutOptions
from envforge.rollouts.runner import RolloutPlan, run_episode
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package

if TYPE_CHECKING:
    from types import ModuleType

    from envforge.executors import Progress
    from envforge.rollouts.trajectory import Trajectory


class RolloutWorker:
    """A Ray actor that runs the episodes it is given, several at once on its own event loop."""

    def __init__(self, package: Path, options: RolloutOptions, key: str) -> None:
        self.setup = (package, options, key)
        self.runner: EpisodeRunner | None = None

    async def run(self, task_id: str, sample: int, infra_retries: int) -> Trajectory:
        if self.runner is None:
            # Loaded by the first episode rather than in __init__: an error there (a package path this node
            # cannot see) reaches the driver as itself, where a failed __init__ would only say the actor died.
            package, options, key = self.setup
            loaded = load_package(open_package(package))
            agent, user, _ = build_clients(options, loaded, key=key)
            self.runner = EpisodeRunner(loaded, agent, user, rollout_config(options))
        return await run_episode(self.runner, task_id, sample, infra_retries)


def run_on_ray(
    ray: ModuleType, package: Path, options: RolloutOptions, plan: RolloutPlan, progress: Progress[Trajectory]
) -> list[Trajectory]:
    """The plan's trajectories in the local run's order, each episode run by one of up to a CPU's worth of actors
    on `ray`, a Ray ready for work.

    `concurrency` stays the number of episodes in flight, split between the actors; an actor gets its next
    episode as one of its own ends, so a slow episode holds up no other and the progress moves per episode.
    """
    episodes = plan.episodes()
    # Ray picks its workers' working directories (on a cluster, other machines), so they get absolute paths;
    # abspath, not resolve, because a shared file system may be mounted through links that differ between nodes.
    package = Path(os.path.abspath(package))
    options = replace(options, cache=Path(os.path.abspath(cache_folder(options))))
    with progress(len(episodes)) as advance:
        cpus = int(ray.cluster_resources().get("CPU", 1))
        count = max(1, min(cpus, plan.concurrency, len(episodes)))
        remote = ray.remote(num_cpus=1)(RolloutWorker)
        actors = [remote.remote(package, options, api_key()) for _ in range(count)]
        free = [plan.concurrency // count + (index < plan.concurrency % count) for index in range(count)]
        waiting = deque(enumerate(episodes))
        pending: dict[Any, tuple[int, int]] = {}
        finished: dict[int, Trajectory] = {}
        try:
            while waiting or pending:
                for worker in range(count):
                    while free[worker] and waiting:
                        index, (task_id, sample) = waiting.popleft()
                        pending[actors[worker].run.remote(task_id, sample, plan.infra_retries)] = (index, worker)
                        free[worker] -= 1
                done, _ = ray.wait(list(pending), num_returns=1)
                for ref in done:
                    index, worker = pending.pop(ref)
                    free[worker] += 1
                    finished[index] = _result(ray, ref)
                    if advance is not None:
                        advance(finished[index])
        finally:
            for actor in actors:
                ray.kill(actor)
    return [finished[index] for index in range(len(episodes))]


def _result(ray: ModuleType, ref: Any) -> Trajectory:
    try:
        trajectory: Trajectory = ray.get(ref)
    except ray.exceptions.RayTaskError as exc:
        # What the episode raised (a replay's cache miss is a one-line user error, as in a local run), rather
        # than Ray's wrapper of it that carries the worker's traceback in its message.
        raise exc.cause from None
    return trajectory

"""A served model on a package's tasks, k episodes each, here or on Ray, every episode saved as a trajectory."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from envforge.errors import UserInputError, did_you_mean
from envforge.executors import Progress, import_ray, no_progress, ray_session
from envforge.ir.display import SHOWN, Display, Table
from envforge.ir.noise import noise_profile
from envforge.ir.verification import RolloutSummary
from envforge.rollouts.clients import api_key, build_clients, rollout_config
from envforge.rollouts.options import RolloutOptions
from envforge.rollouts.ray_actors import run_on_ray
from envforge.rollouts.runner import RolloutPlan, run_rollouts
from envforge.rollouts.trajectory import Trajectory, save_trajectories
from envforge.runtime.curriculum import Curriculum, curriculum_levels
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package

T = TypeVar("T")


@dataclass(frozen=True)
class RolloutReport:
    """What a rollout did: its episodes, the file that holds them, and how solvable they found the tasks."""

    trajectories: list[Trajectory]
    path: Path
    summary: RolloutSummary

    def as_dict(self) -> dict[str, Any]:
        return {"trajectories": str(self.path), **self.summary.model_dump(mode="json", exclude={"tasks"})}

    def display(self) -> Display:
        """The first tasks' pass rates, pools and failures, then the means, failure classes and cache hits."""
        summary, k = self.summary, self.summary.k
        columns = ("task", "passed", f"pass@{k}", f"pass^{k}", "pool", "failures")
        table = Table(
            f"{summary.model}: {summary.episodes} episodes, k={k}",
            columns,
            [task.cells() for task in summary.tasks[:SHOWN]],
        )
        lines = [f"  ... {len(summary.tasks) - SHOWN} more tasks"] if len(summary.tasks) > SHOWN else []
        classes = ", ".join(f"{name} {count}" for name, count in summary.failures_by_class.items()) or "none"
        lines.append(
            f"mean pass@1 {summary.mean_pass_at_1:.3f}, pass@{k} {summary.mean_pass_at_k:.3f}; "
            f"failures: {classes}; {summary.cached_requests}/{summary.requests} requests from the cache; "
            f"trajectories: {self.path}"
        )
        return Display(tables=[table], lines=lines)


def default_output(package: EnvPackage, model: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", model).strip("-") or "model"
    return Path("runs") / "rollouts" / f"{package.env.blueprint.domain}-{slug}.jsonl"


def pick_tasks(package: EnvPackage, wanted: list[str] | None, limit: int | None) -> list[str]:
    ids = package.task_ids
    if wanted:
        missing = [task for task in wanted if task not in package.tasks]
        if missing:
            raise UserInputError(
                f"--tasks: {missing[0]} is not a task of {package.path}{did_you_mean(missing[0], ids)}"
            )
        ids = [task for task in ids if task in set(wanted)]
    return ids[:limit] if limit is not None else ids


def curriculum_of(options: RolloutOptions) -> Curriculum | None:
    """The curriculum `--curriculum` asks for, over the `--noise` profile; one line naming the fix if it cannot run."""
    if options.curriculum is None:
        if options.noise is not None:
            noise_profile(options.noise)
        return None
    if options.noise is None:
        raise UserInputError("--curriculum raises the level of a noise profile: add --noise tools, user or all")
    if options.executor == "ray":
        raise UserInputError("--curriculum runs its waves in order here: use --executor local")
    return Curriculum(noise_profile(options.noise), levels=curriculum_levels(options.curriculum))


async def _rollouts(
    package: EnvPackage, options: RolloutOptions, plan: RolloutPlan, progress: Progress[Trajectory]
) -> list[Trajectory]:
    curriculum = curriculum_of(options)
    agent, user, clients = build_clients(options, package, key=api_key())
    try:
        with progress(len(plan.task_ids) * plan.k) as advance:
            config = rollout_config(options)
            return await run_rollouts(package, agent, user, plan, config, on_done=advance, curriculum=curriculum)
    finally:
        for client in clients:
            await client.close()


def _on_ray(
    package: Path, options: RolloutOptions, plan: RolloutPlan, progress: Progress[Trajectory]
) -> list[Trajectory]:
    if not plan.episodes():
        return []
    with ray_session(options.address) as ray:
        return run_on_ray(ray, package, options, plan, progress)


def _run_coroutine(coroutine: Coroutine[Any, Any, T]) -> T:
    """`asyncio.run`, in a thread of its own where this thread runs an event loop already (a notebook's)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coroutine)
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def rollout_and_save(
    package_path: Path, options: RolloutOptions, progress: Progress[Trajectory] | None = None
) -> tuple[list[Trajectory], Path]:
    """Run the episodes and write them; the trajectories file appears only once every episode has ended."""
    curriculum_of(options)
    if options.executor == "ray":
        import_ray()
    package = load_package(open_package(package_path))
    plan = RolloutPlan(
        task_ids=pick_tasks(package, options.tasks, options.limit), k=options.k, concurrency=options.concurrency
    )
    if options.executor == "ray":
        trajectories = _on_ray(package_path, options, plan, progress or no_progress)
    else:
        trajectories = _run_coroutine(_rollouts(package, options, plan, progress or no_progress))
    target = options.out or default_output(package, options.model)
    save_trajectories(target, trajectories)
    return trajectories, target

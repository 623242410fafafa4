"""`envforge rollout`, `validate` and `reverify`: a served model against a package's tasks."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path

from envforge.cli.executors import import_ray
from envforge.cli.output import episode_progress
from envforge.cli.rollout_options import RolloutOptions
from envforge.errors import UserInputError, did_you_mean
from envforge.llm import CacheMode, LLMClient, ResponseCache
from envforge.llm.cache import default_cache_dir
from envforge.rollout.episode import RolloutConfig
from envforge.rollout.runner import RolloutPlan, run_rollouts
from envforge.rollout.trajectory import Trajectory, save_trajectories
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.users.base import UserSimulator
from envforge.users.persona import PersonaUser, personas_of
from envforge.users.scripted import ScriptedUser


def default_output(package: EnvPackage, model: str) -> Path:
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", model).strip("-") or "model"
    return Path("runs") / "rollouts" / f"{package.env.blueprint.domain}-{slug}.jsonl"


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


def api_key() -> str:
    """The endpoint's key: `$OPENAI_API_KEY`, else the placeholder a vLLM server accepts."""
    return os.environ.get("OPENAI_API_KEY", "EMPTY")


def cache_folder(options: RolloutOptions) -> Path:
    return options.cache or default_cache_dir() / "llm"


def build_clients(
    options: RolloutOptions, package: EnvPackage, *, key: str
) -> tuple[LLMClient, UserSimulator, list[LLMClient]]:
    """The agent's client and the user simulator (with its own client when a model plays the user)."""
    mode: CacheMode = "replay" if options.offline else "use"
    cache = ResponseCache(cache_folder(options), mode)
    agent = LLMClient(options.base_url, options.model, api_key=key, cache=cache)
    if options.user == "scripted":
        return agent, ScriptedUser(), [agent]
    user_client = LLMClient(
        options.user_base_url or options.base_url,
        options.user_model or options.model,
        api_key=key,
        cache=cache,
    )
    return agent, PersonaUser(user_client, personas_of(package.env.blueprint)), [agent, user_client]


def rollout_config(options: RolloutOptions) -> RolloutConfig:
    return RolloutConfig(
        max_turns=options.max_turns,
        max_user_turns=options.max_user_turns,
        max_tokens=options.max_tokens,
        temperature=options.temperature,
        seed=options.seed,
    )


async def _rollouts(package: EnvPackage, options: RolloutOptions, plan: RolloutPlan) -> list[Trajectory]:
    agent, user, clients = build_clients(options, package, key=api_key())
    try:
        with episode_progress(len(plan.task_ids) * plan.k) as advance:
            return await run_rollouts(package, agent, user, plan, rollout_config(options), on_done=advance)
    finally:
        for client in clients:
            await client.close()


def rollout_and_save(package_path: Path, options: RolloutOptions) -> tuple[list[Trajectory], Path]:
    """Run the episodes and write them; the trajectories file appears only once every episode has ended."""
    if options.executor == "ray":
        import_ray()
    package = load_package(open_package(package_path))
    plan = RolloutPlan(
        task_ids=pick_tasks(package, options.task_ids(), options.limit), k=options.k, concurrency=options.concurrency
    )
    if options.executor == "ray":
        from envforge.cli.rollout_ray import run_on_ray

        trajectories = run_on_ray(package_path, options, plan)
    else:
        trajectories = asyncio.run(_rollouts(package, options, plan))
    target = options.out or default_output(package, options.model)
    save_trajectories(target, trajectories)
    return trajectories, target

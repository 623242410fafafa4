"""Noise and the curriculum through `envforge rollout`'s engine, against a scripted agent served over real HTTP
(endpoint.py says why scripted): the same seed gives the same trajectory, every trajectory records its noise, and
a curriculum raises the level wave by wave, whatever the concurrency."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from envforge.ir.noise import SHIPPED
from envforge.llm import LLMClient, ResponseCache
from envforge.rollouts.episode import EpisodeRunner, RolloutConfig
from envforge.rollouts.reverify import reverify_trajectory
from envforge.rollouts.runner import RolloutPlan, run_rollouts
from envforge.rollouts.trajectory import Trajectory
from envforge.runtime.curriculum import Curriculum
from envforge.runtime.dialogue import Said, golden_dialogue
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.users.scripted import ScriptedUser
from tests.rollouts.endpoint import Agent, say, serve, tool_call


def _one_turn_tasks(package: EnvPackage) -> list[str]:
    """Tasks whose golden conversation needs no user turn: the agent calls, then reports."""
    return [
        task_id
        for task_id in package.task_ids
        if not any(
            isinstance(step, Said) and step.role == "user"
            for step in golden_dialogue(package.task(task_id), package.env.blueprint)
        )
    ][:6]


def recovering_agent(package: EnvPackage, task_of: dict[str, str]) -> Agent:
    """Plays the oracle of the task whose episode it is (found by its opener: tool noise leaves the user's words
    alone), retrying a retryable error and a stale read, and paging through a cut list, as a careful model would."""

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any]:
        task = package.task(task_of[messages[1]["content"]])
        calls = [message for message in messages if message["role"] == "assistant" and message.get("tool_calls")]
        results = [json.loads(message["content"]) for message in messages if message["role"] == "tool"]
        if calls:
            last = calls[-1]["tool_calls"][0]["function"]
            result = results[-1]
            error = result.get("error") if isinstance(result, dict) else None
            if (isinstance(error, dict) and error.get("retryable")) or "warning" in result:
                return tool_call(last["name"], json.loads(last["arguments"]), call_id=f"r{len(calls)}")
            if "next_offset" in result:
                arguments = {**json.loads(last["arguments"]), "offset": result["next_offset"]}
                return tool_call(last["name"], arguments, call_id=f"p{len(calls)}")
        done = sum(1 for result in results if not _again(result))
        if done < len(task.oracle):
            return tool_call(task.oracle[done].name, task.oracle[done].arguments, call_id=f"o{done}")
        return say(package.golden_message(task.id))

    return agent


def _again(result: Any) -> bool:
    error = result.get("error") if isinstance(result, dict) else None
    return (isinstance(error, dict) and bool(error.get("retryable"))) or "warning" in result or "next_offset" in result


def _comparable(trajectory: Trajectory) -> dict[str, Any]:
    return trajectory.model_dump(mode="json", exclude={"timings"})


async def _episodes(package: EnvPackage, tasks: list[str], folder: Path, config: RolloutConfig) -> list[Trajectory]:
    task_of = {package.task(task_id).instruction: task_id for task_id in tasks}
    with serve(recovering_agent(package, task_of)) as (url, _):
        client = LLMClient(url, "scripted", cache=ResponseCache(folder, "off"))
        try:
            runner = EpisodeRunner(package, client, ScriptedUser(), config)
            return [await runner.run(task_id, sample) for task_id in tasks for sample in range(3)]
        finally:
            await client.close()


def test_the_same_seed_gives_the_same_trajectory_and_each_records_its_noise(
    packages: dict[str, Path], tmp_path: Path
) -> None:
    package = load_package(open_package(packages["retail"]))
    tasks = _one_turn_tasks(package)
    assert len(tasks) >= 2
    config = RolloutConfig(noise=SHIPPED["tools"].at(0.7))
    first = asyncio.run(_episodes(package, tasks, tmp_path / "a", config))
    second = asyncio.run(_episodes(package, tasks, tmp_path / "b", config))
    assert [_comparable(t) for t in first] == [_comparable(t) for t in second]
    assert all(t.outcome == "passed" for t in first), [(t.task_id, t.failure) for t in first]
    records = [t.noise for t in first]
    assert all(record is not None and record.profile == config.noise for record in records)
    assert sum(len(record.tool_events) for record in records if record is not None) >= len(tasks)
    assert {record.seed for record in records if record is not None} == {f"{t}:{s}" for t in tasks for s in range(3)}
    assert any(t.tool_errors for t in first)
    for trajectory in first:
        judged, diverged = reverify_trajectory(package, trajectory)
        assert diverged is None and judged.verdict == trajectory.verdict, trajectory.task_id
    clean = asyncio.run(_episodes(package, tasks[:1], tmp_path / "c", RolloutConfig()))
    assert clean[0].noise is None and clean[0].tool_errors == 0


def test_noise_grows_the_request_budget_by_the_work_it_makes(packages: dict[str, Path], tmp_path: Path) -> None:
    """Capped at the requests a clean run needs, a careful agent still recovers from every strike: each struck call
    allows one more request (its retry or next page), so noise never takes away the room to recover."""
    package = load_package(open_package(packages["retail"]))
    task = max(_one_turn_tasks(package), key=lambda task_id: len(package.task(task_id).oracle))
    tight = len(package.task(task).oracle) + 1
    clean = asyncio.run(_episodes(package, [task], tmp_path / "clean", RolloutConfig(max_turns=tight)))
    assert [t.outcome for t in clean] == ["passed"] * 3 and {t.tokens.requests for t in clean} == {tight}
    noisy = asyncio.run(
        _episodes(package, [task], tmp_path / "noisy", RolloutConfig(max_turns=tight, noise=SHIPPED["tools"].at(1.0)))
    )
    assert [t.outcome for t in noisy] == ["passed"] * 3, [(t.ended, t.failure) for t in noisy]
    for trajectory in noisy:
        assert trajectory.noise is not None and trajectory.noise.tool_events
        assert trajectory.tokens.requests == tight + len(trajectory.noise.tool_events)


async def _curriculum_run(
    package: EnvPackage, tasks: list[str], folder: Path, concurrency: int
) -> tuple[list[Trajectory], Curriculum]:
    task_of = {package.task(task_id).instruction: task_id for task_id in tasks}
    curriculum = Curriculum(SHIPPED["tools"], levels=(0.0, 0.5, 1.0), promote_at=1.0, window=4)
    with serve(recovering_agent(package, task_of)) as (url, _):
        client = LLMClient(url, "scripted", cache=ResponseCache(folder, "off"))
        try:
            plan = RolloutPlan(task_ids=tasks[:2], k=6, concurrency=concurrency)
            trajectories = await run_rollouts(package, client, ScriptedUser(), plan, curriculum=curriculum)
        finally:
            await client.close()
    return trajectories, curriculum


@pytest.mark.parametrize("concurrency", [1, 4])
def test_a_curriculum_raises_the_level_wave_by_wave(
    packages: dict[str, Path], tmp_path: Path, concurrency: int
) -> None:
    package = load_package(open_package(packages["retail"]))
    tasks = _one_turn_tasks(package)
    trajectories, curriculum = asyncio.run(_curriculum_run(package, tasks, tmp_path, concurrency))
    levels = [t.noise.curriculum["level"] for t in trajectories if t.noise is not None and t.noise.curriculum]
    assert len(levels) == 12
    assert levels[:4] == [0.0] * 4 and levels[4:8] == [0.5] * 4 and set(levels[8:]) == {1.0}
    assert curriculum.promotions == [4, 8] and curriculum.level == 1.0
    assert all(t.outcome == "passed" for t in trajectories)
    assert all(
        t.noise is not None and t.noise.profile.level == level for t, level in zip(trajectories, levels, strict=True)
    )

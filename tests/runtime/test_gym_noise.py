"""Tool noise and a curriculum in the Gymnasium env and the trainers' noise source, on a real package: an agent
that retries what noise asks it to retry still scores 1, the env's seed fixes the noise, and a curriculum steps up
once the episodes pass."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envforge.adapters.noise import NoiseSource
from envforge.ir.noise import SHIPPED
from envforge.runtime.curriculum import Curriculum
from envforge.runtime.episode import load_package
from envforge.runtime.gym_env import ToolUseEnv, action_for_call
from envforge.runtime.opened_package import open_package


def _play(env: ToolUseEnv, seed: int) -> tuple[float, dict[str, Any], dict[str, Any]]:
    """The oracle, each call again while its answer asks for that (a retryable error, a stale read, a next page)."""
    _, start = env.reset(seed=seed)
    assert env.episode is not None
    for call in env.episode.task.oracle:
        arguments = dict(call.arguments)
        while True:
            observation, _, _, _, _ = env.step(action_for_call(call.name, arguments))
            result = json.loads(observation)
            error = result.get("error")
            if (isinstance(error, dict) and error.get("retryable")) or "warning" in result:
                continue
            if "next_offset" in result:
                arguments = {**arguments, "offset": result["next_offset"]}
                continue
            break
    _, reward, terminated, _, end = env.step(json.dumps({"answer": env.package.golden_message(env.episode.task.id)}))
    assert terminated
    return float(reward), start, end


def test_a_recovering_agent_scores_1_and_the_seed_fixes_the_noise(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["retail"]))
    env = ToolUseEnv(package, noise="tools@1.0")
    events = 0
    for seed in range(8):
        reward, start, end = _play(env, seed)
        assert reward == 1.0, (start["task_id"], end["verdict"])
        assert start["noise"]["level"] == 1.0 and start["noise"]["noisy"] is True
        events += len(end["noise_events"])
        again = _play(env, seed)
        assert again[1]["noise"] == start["noise"] and again[2]["noise_events"] == end["noise_events"]
    assert events >= 8


def test_each_struck_call_allows_one_more_step(packages: dict[str, Path]) -> None:
    """Capped at the steps a clean run takes, the recovering agent still finishes under noise at every strike."""
    package = load_package(open_package(packages["retail"]))
    task = max(package.task_ids, key=lambda task_id: len(package.task(task_id).oracle))
    steps = len(package.task(task).oracle) + 1
    assert _play(ToolUseEnv(package, task_id=task, max_steps=steps), 0)[0] == 1.0
    env = ToolUseEnv(package, task_id=task, max_steps=steps, noise="tools@1.0")
    events = 0
    for seed in range(4):
        reward, _, end = _play(env, seed)
        assert reward == 1.0, end["verdict"]
        events += len(end["noise_events"])
    assert events >= 4


def test_a_curriculum_steps_up_in_the_gym_env_once_episodes_pass(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["retail"]))
    curriculum = Curriculum(SHIPPED["tools"], levels=(0.0, 0.5, 1.0), promote_at=1.0, window=3)
    env = ToolUseEnv(package, curriculum=curriculum)
    levels = []
    for seed in range(7):
        reward, start, _ = _play(env, seed)
        assert reward == 1.0
        levels.append(start["curriculum"]["level"])
    assert levels == [0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 1.0]
    assert curriculum.promotions == [3, 6]


def test_a_trainers_noise_source_seeds_by_task_and_count_and_hears_outcomes() -> None:
    source = NoiseSource("tools@1.0", "0,1")
    first, second = source.draw("t"), source.draw("t")
    assert first is None, "a curriculum starts at level 0"
    assert second is None and source.started == {"t": 2}
    assert source.curriculum is not None
    for _ in range(source.curriculum.window):
        source.record(True)
    drawn = source.draw("t")
    assert drawn is not None and drawn.seed == "t:2" and drawn.profile.level == 1.0
    fixed = NoiseSource("all@0.5")
    assert [d.seed if d else None for d in (fixed.draw("a"), fixed.draw("a"))] == [
        d.seed if d else None for d in (SHIPPED["all"].at(0.5).episode("a:0"), SHIPPED["all"].at(0.5).episode("a:1"))
    ]

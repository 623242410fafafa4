"""The Gymnasium text environment on real packages: the contract checker, oracle replay, and failures."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

from envforge.runtime.episode import load_package
from envforge.runtime.gym_env import AnyText, ToolUseEnv, action_for_call, register_package
from envforge.runtime.opened_package import open_package
from tests.conftest import BLUEPRINTS


@pytest.mark.parametrize("domain", [path.stem for path in BLUEPRINTS])
def test_check_env_passes_without_warnings_and_every_oracle_scores_one(packages: dict[str, Path], domain: str) -> None:
    env_id = f"envforge-test/{domain}-v0"
    register_package(packages[domain], env_id)
    env = gym.make(env_id)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check_env(env.unwrapped)
    package = load_package(open_package(packages[domain]))
    for task_id in package.task_ids:
        task = package.task(task_id)
        observation, info = env.reset(options={"task_id": task_id})
        assert observation.startswith(task.instruction)
        assert info["task_id"] == task_id and {tool["function"]["name"] for tool in info["tools"]} >= {
            call.name for call in task.oracle
        }
        for call in task.oracle:
            observation, reward, terminated, truncated, info = env.step(action_for_call(call.name, call.arguments))
            assert "error" not in json.loads(observation), observation
            assert (reward, terminated, truncated) == (0.0, False, False)
        observation, reward, terminated, truncated, info = env.step(package.golden_message(task_id))
        assert (reward, terminated, truncated) == (1.0, True, False), info["verdict"]
        assert info["verdict"]["passed"] and len(info["tool_calls"]) == len(task.oracle)


def test_reset_is_deterministic_in_task_and_seed(retail_package: Path) -> None:
    env = ToolUseEnv(retail_package)
    first = [env.reset(seed=seed)[1]["task_id"] for seed in range(20)]
    again = [env.reset(seed=seed)[1]["task_id"] for seed in range(20)]
    assert first == again and len(set(first)) > 5
    fixed = ToolUseEnv(retail_package, task_id=first[3])
    assert {fixed.reset(seed=seed)[1]["task_id"] for seed in range(5)} == {first[3]}


def test_a_run_that_only_reads_scores_zero_on_a_write_task(retail_package: Path) -> None:
    package = load_package(open_package(retail_package))
    task = next(package.task(task_id) for task_id in package.task_ids if package.task(task_id).kind == "write")
    env = ToolUseEnv(package, task_id=task.id)
    env.reset()
    lookup = task.oracle[0]
    env.step(action_for_call(lookup.name, lookup.arguments))
    _, reward, terminated, _, info = env.step("I could not do it.")
    assert reward == 0.0 and terminated
    assert info["verdict"]["components"]["expected_changes_made"] is False


def test_bad_calls_come_back_as_observations_and_the_state_is_untouched(retail_package: Path) -> None:
    env = ToolUseEnv(retail_package, task_id=load_package(open_package(retail_package)).task_ids[0], max_steps=3)
    env.reset()
    malformed, reward, terminated, truncated, _ = env.step(
        '<tool_call>{"name": "get_order", "arguments": {</tool_call>'
    )
    assert json.loads(malformed)["error"]["code"] == "malformed_call" and not (terminated or truncated)
    unknown, *_ = env.step('{"name": "drop_tables", "arguments": {}}')
    assert "error" in json.loads(unknown)
    _, reward, terminated, truncated, info = env.step('{"name": "get_order", "arguments": {"order_id": 7}}')
    assert (terminated, truncated, reward) == (False, True, 0.0)
    assert info["failed_calls"] == 2 and info["verdict"]["components"]["no_unexpected_changes"] is True
    with pytest.raises(RuntimeError, match="reset"):
        env.step("hello")


def test_the_text_space_accepts_any_string_and_samples_reproducibly() -> None:
    space = AnyText(max_length=100)
    assert (
        space.contains("ünïcødé {json} <tool_call>\n")
        and not space.contains(b"bytes")
        and not space.contains("x" * 101)
    )
    assert AnyText().contains("x" * 10_000_000)
    space.seed(7)
    first = [space.sample() for _ in range(5)]
    space.seed(7)
    assert [space.sample() for _ in range(5)] == first

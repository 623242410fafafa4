"""Passing rollouts as SFT demonstrations: only what the current verifier passes again, split like its task.

The rollouts come from a scripted agent behind a real HTTP endpoint (tests/rollouts/endpoint.py says why).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pyarrow.parquet as pq

from envforge.exporters.split import split_tasks
from envforge.llm import LLMClient
from envforge.rollouts.runner import RolloutPlan, run_rollouts
from envforge.rollouts.trajectory import Trajectory, save_trajectories
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.users import ScriptedUser
from tests.conftest import REPO, envforge_cli, error_lines
from tests.rollouts.endpoint import odd_tasks, oracle_agent, serve

SHOWCASE = REPO / "generated" / "showcase" / "retail"


def rollouts(package: EnvPackage, k: int) -> list[Trajectory]:
    async def go() -> list[Trajectory]:
        with serve(oracle_agent(package, odd_tasks)) as (url, _):
            client = LLMClient(url, "scripted")
            try:
                plan = RolloutPlan(task_ids=package.task_ids, k=k)
                return await run_rollouts(package, client, ScriptedUser(), plan)
            finally:
                await client.close()

    return asyncio.run(go())


def test_passing_rollouts_join_the_sft_data_in_their_tasks_split(tmp_path: Path) -> None:
    package = load_package(open_package(SHOWCASE))
    stored = rollouts(package, k=2)
    failed = next(t for t in stored if t.outcome == "failed")
    # A record that claims a pass its calls do not produce: the replay under the verifier drops it.
    forged = failed.model_copy(update={"outcome": "passed", "verdict": stored[0].verdict})
    path = tmp_path / "rollouts.jsonl"
    save_trajectories(path, [*stored, forged])
    result = envforge_cli(
        "export", str(SHOWCASE), "-f", "sft,trl", "--rollouts", str(path), "-o", str(tmp_path / "x"), "--json"
    )
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    passing = [t for t in stored if t.outcome == "passed"]
    # Two samples of one task replay the same scripted conversation: kept once.
    assert summary["rollouts"] == {package.env_id: len({t.task_id for t in passing})}
    table = pq.read_table(tmp_path / "x" / "sft" / "retail" / "messages.parquet").to_pylist()
    from_rollouts = [row for row in table if row["source"] == "rollout:scripted"]
    assert sorted(row["task_id"] for row in from_rollouts) == sorted({t.task_id for t in passing})
    splits = split_tasks(package.env_id, package.task_ids, 0.1)
    assert all(row["split"] == splits[row["task_id"]] for row in from_rollouts)
    assert all(row["reward"] == 1.0 for row in from_rollouts)
    lines = [
        json.loads(line)
        for part in ("train", "test")
        for line in (tmp_path / "x" / "sft" / "retail" / f"{part}.jsonl").read_text().splitlines()
    ]
    assert len(lines) == len(package.task_ids) + len(from_rollouts)
    # Every judged rollout counts in its task's pass rate, the forged one as the failure its calls are.
    rates = {
        row["task_id"]: row["difficulty"]["pass_rates"]
        for part in ("train", "test")
        for row in pq.read_table(tmp_path / "x" / "trl" / "retail" / f"{part}.parquet").to_pylist()
    }
    for task_id in package.task_ids:
        samples = sum(t.task_id == task_id for t in [*stored, forged])
        passed = sum(t.task_id == task_id for t in passing)
        assert rates[task_id] == [
            {
                "model": "scripted",
                "samples": samples,
                "passed": passed,
                "pass_at_1": round(passed / samples, 4),
                "pass_at_k": 1.0 if passed else 0.0,
            }
        ], task_id


def test_rollouts_without_a_dataset_or_of_a_missing_package_are_one_line_errors(tmp_path: Path) -> None:
    package = load_package(open_package(SHOWCASE))
    path = tmp_path / "r.jsonl"
    stored = rollouts(package, k=1)[:1]
    save_trajectories(path, [stored[0].model_copy(update={"env_id": "envforge/airline-v0"})])
    for args, needle in (
        (("-f", "wheel", "--rollouts", str(path)), "add -f sft, verl or trl"),
        (("-f", "sft", "--rollouts", str(path)), "envforge/airline-v0"),
    ):
        result = envforge_cli("export", str(SHOWCASE), *args, "-o", str(tmp_path / "out"))
        assert result.returncode == 2 and needle in result.stderr
        assert len(error_lines(result.stderr)) == 1
    assert not (tmp_path / "out").exists()

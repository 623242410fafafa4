"""`envforge rollout` and `validate --executor ray`: the report and trajectories of a local run, and plain errors.

The Ray tests start a real local Ray in the CLI's own process (several seconds on two cores, more on a busy
machine) besides a local run, so they are `slow`: CI runs them in its slow tier.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from envforge.runtime.episode import EnvPackage
from tests.cli.test_bad_input import run_main
from tests.conftest import envforge_cli
from tests.rollouts.conftest import SHOWCASE
from tests.rollouts.endpoint import free_port, odd_tasks, oracle_agent, serve
from tests.rollouts.record import ARGS, RECORDED

# Wall-clock times of the episode's own parts: two runs of the same episode never agree on them, local or not.
# `model_s` stays: for a cached response it is the recorded request's latency, the same in every run.
CLOCKED = ("wall_s", "env_s", "user_s")


def dead_url() -> str:
    return f"http://127.0.0.1:{free_port()}/v1"


def replay(package: Path, out: Path, *extra: str) -> dict[str, Any]:
    """`validate` over the recorded real responses, offline; its --json summary."""
    result = envforge_cli(
        "validate", str(package), "--base-url", dead_url(), *ARGS, "--cache", str(RECORDED), "--offline",
        "-o", str(out), "--json", *extra, timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary: dict[str, Any] = json.loads(result.stdout)
    return summary


def unclocked(trajectories: Path, clocked: tuple[str, ...] = CLOCKED) -> list[dict[str, Any]]:
    records = [json.loads(line) for line in trajectories.read_text(encoding="utf-8").splitlines()]
    for record in records:
        for name in clocked:
            del record["timings"][name]
    return records


@pytest.mark.slow
def test_validate_on_ray_writes_the_report_and_trajectories_of_a_local_run(
    showcase_copy: Path, tmp_path: Path, ray_temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    on_ray = tmp_path / "on-ray" / "retail"
    shutil.copytree(SHOWCASE, on_ray)
    local = replay(showcase_copy, tmp_path / "local.jsonl")
    # The CLI starts Ray itself, in the temp dir RAY_TMPDIR names. Three episodes in flight over two workers
    # (this machine's two cores) is an uneven split, where the local run keeps eight in flight.
    monkeypatch.setenv("RAY_TMPDIR", str(ray_temp_dir))
    remote = replay(on_ray, tmp_path / "on-ray.jsonl", "--executor", "ray", "--concurrency", "3")

    assert local["requests"] == local["cached_requests"] == 15
    assert local["failures_by_reason"] == {
        "format:unparseable_calls": 1,
        "model:gave_up": 5,
        "model:wrong_answer": 2,
    }
    assert remote == {**local, "trajectories": str(tmp_path / "on-ray.jsonl")}
    assert (on_ray / "report.json").read_bytes() == (showcase_copy / "report.json").read_bytes()
    assert (on_ray / "envforge.yaml").read_bytes() == (showcase_copy / "envforge.yaml").read_bytes()
    ray_records, local_records = unclocked(tmp_path / "on-ray.jsonl"), unclocked(tmp_path / "local.jsonl")
    assert ray_records == local_records
    assert [(r["task_id"], r["sample"], r["tokens"]["cached_requests"]) for r in ray_records] == [
        ("retail-0001", 0, 2),
        ("retail-0001", 1, 2),
        ("retail-0003", 0, 2),
        ("retail-0003", 1, 3),
        ("retail-0008", 0, 1),
        ("retail-0008", 1, 1),
        ("retail-0020", 0, 2),
        ("retail-0020", 1, 2),
    ]
    assert list(ray_temp_dir.iterdir()) == [ray_temp_dir / "ray"], "Ray ran in the temp dir it was given"


@pytest.mark.slow
def test_rollout_on_ray_against_a_live_endpoint_asks_what_a_local_run_asks_and_records_it_in_the_cache(
    showcase: EnvPackage, tmp_path: Path, ray_temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tasks = "retail-0001,retail-0002,retail-0003,retail-0004"
    with serve(oracle_agent(showcase, odd_tasks)) as (url, endpoint):

        def rollout(cache: str, out: str, *extra: str) -> dict[str, Any]:
            result = envforge_cli(
                "rollout", str(SHOWCASE), "--base-url", url, "--model", "scripted", "-k", "2", "--tasks", tasks,
                "--max-user-turns", "1", "--cache", str(tmp_path / cache), "-o", str(tmp_path / out), "--json",
                *extra, timeout=600,
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            summary: dict[str, Any] = json.loads(result.stdout)
            return summary

        local = rollout("local-cache", "local.jsonl")
        asked_locally = endpoint.requests
        monkeypatch.setenv("RAY_TMPDIR", str(ray_temp_dir))
        remote = rollout("ray-cache", "ray.jsonl", "--executor", "ray")
        asked_on_ray = endpoint.requests - asked_locally
    assert (local["episodes"], local["passed"], local["cached_requests"]) == (8, 4, 0)
    assert asked_on_ray == asked_locally == local["requests"]
    assert remote == {**local, "trajectories": str(tmp_path / "ray.jsonl")}
    # Live latencies are measured, so `model_s` differs between the runs as well.
    assert unclocked(tmp_path / "ray.jsonl", (*CLOCKED, "model_s")) == unclocked(
        tmp_path / "local.jsonl", (*CLOCKED, "model_s")
    )
    # The workers recorded every response in the --cache folder given: replayed offline here, all are hits.
    replayed = envforge_cli(
        "rollout", str(SHOWCASE), "--base-url", dead_url(), "--model", "scripted", "-k", "2", "--tasks", tasks,
        "--max-user-turns", "1", "--cache", str(tmp_path / "ray-cache"), "--offline", "-o",
        str(tmp_path / "replayed.jsonl"), "--json",
    )  # fmt: skip
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["cached_requests"] == local["requests"]


@pytest.mark.parametrize("command", ["rollout", "validate"])
def test_rollouts_on_ray_without_ray_installed_name_the_extra_and_exit_2(
    command: str,
    showcase_copy: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    report = (showcase_copy / "report.json").read_bytes()
    monkeypatch.setitem(sys.modules, "ray", None)
    out = tmp_path / "t.jsonl"
    code, message = run_main(
        capsys, command, str(showcase_copy), "--base-url", dead_url(), *ARGS, "--cache", str(RECORDED), "--offline",
        "-o", str(out), "--executor", "ray",
    )  # fmt: skip
    assert code == 2
    assert message == "--executor ray needs Ray, which is not installed: pip install 'envforge[ray]'"
    assert not out.exists()
    assert (showcase_copy / "report.json").read_bytes() == report


@pytest.mark.parametrize("command", ["rollout", "validate"])
def test_rollouts_given_an_address_without_the_ray_executor_are_a_usage_error(
    command: str, showcase_copy: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.jsonl"
    code, message = run_main(
        capsys, command, str(showcase_copy), "--base-url", dead_url(), *ARGS, "-o", str(out), "--address", "auto"
    )
    assert code == 2
    assert message.startswith("Invalid value for --address: --address is the Ray cluster to use; add --executor ray")
    assert not out.exists()

"""`envforge rollout`, `validate` and `reverify` as a user runs them, against a scripted agent endpoint."""

from __future__ import annotations

import json
from pathlib import Path

from envforge.ir.verification import ValidationReport
from envforge.rollouts.trajectory import load_trajectories
from envforge.runtime.episode import EnvPackage
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import check_package_integrity
from tests.conftest import envforge_cli, error_lines
from tests.rollouts.endpoint import free_port, odd_tasks, oracle_agent, serve


def test_validate_writes_pass_at_k_and_a_failure_breakdown_and_a_rerun_comes_from_the_cache(
    showcase: EnvPackage, showcase_copy: Path, tmp_path: Path
) -> None:
    cache = tmp_path / "cache"
    out = tmp_path / "runs" / "t.jsonl"
    tasks = "retail-0001,retail-0002,retail-0003,retail-0004"
    with serve(oracle_agent(showcase, odd_tasks)) as (url, endpoint):
        args = [str(showcase_copy), "--base-url", url, "--model", "scripted", "-k", "2", "--tasks", tasks]
        result = envforge_cli(
            "validate", *args, "--cache", str(cache), "-o", str(out), "--json", "--max-user-turns", "1"
        )
        assert result.returncode == 0, result.stderr
        live_requests = endpoint.requests
    summary = json.loads(result.stdout)
    assert (summary["episodes"], summary["judged"], summary["passed"]) == (8, 8, 4)
    assert summary["failures_by_class"] == {"model": 4}
    assert summary["pools"]["hard"] == ["retail-0002", "retail-0004"]
    report = ValidationReport.model_validate_json((showcase_copy / "report.json").read_bytes())
    assert report.rollouts is not None
    assert {t.task_id: t.pass_at_k for t in report.rollouts.tasks} == {
        "retail-0001": 1.0,
        "retail-0002": 0.0,
        "retail-0003": 1.0,
        "retail-0004": 0.0,
    }
    assert check_package_integrity(open_for_check(showcase_copy)) == []
    assert len(load_trajectories(out)) == 8 and live_requests == summary["requests"]

    offline = envforge_cli(
        "validate",
        *[a if a != url else f"http://127.0.0.1:{free_port()}/v1" for a in args],
        "--cache",
        str(cache),
        "--offline",
        "-o",
        str(out),
        "--json",
        "--max-user-turns",
        "1",
    )
    assert offline.returncode == 0, offline.stderr
    again = json.loads(offline.stdout)
    assert again["cached_requests"] == again["requests"] == summary["requests"]
    assert again["passed"] == 4


def test_rollout_saves_one_trajectory_per_episode(showcase: EnvPackage, tmp_path: Path) -> None:
    out = tmp_path / "traj.jsonl"
    with serve(oracle_agent(showcase, odd_tasks)) as (url, _):
        result = envforge_cli(
            "rollout",
            str(showcase.path),
            "--base-url",
            url,
            "--model",
            "scripted",
            "--tasks",
            "retail-0001",
            "--tasks",
            "retail-0003",
            "-k",
            "3",
            "--concurrency",
            "4",
            "--cache",
            str(tmp_path / "c"),
            "-o",
            str(out),
        )
    assert result.returncode == 0, result.stderr
    trajectories = load_trajectories(out)
    assert [(t.task_id, t.sample) for t in trajectories] == [(f"retail-000{i}", s) for i in (1, 3) for s in range(3)]
    assert all(t.outcome == "passed" and t.model == "scripted" and t.simulator for t in trajectories)


def test_reverify_rejudges_stored_trajectories_in_place(showcase: EnvPackage, tmp_path: Path) -> None:
    out = tmp_path / "traj.jsonl"
    with serve(oracle_agent(showcase, odd_tasks)) as (url, _):
        envforge_cli(
            "rollout",
            str(showcase.path),
            "--base-url",
            url,
            "--model",
            "scripted",
            "--tasks",
            "retail-0001",
            "--cache",
            str(tmp_path / "c"),
            "-o",
            str(out),
        )
    result = envforge_cli("reverify", str(showcase.path), str(out), "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"trajectories": str(out), "judged": 1, "changed": [], "diverged": []}


def test_bad_input_gets_one_line_and_exit_2(showcase: EnvPackage, tmp_path: Path) -> None:
    base = [str(showcase.path), "--base-url", "http://127.0.0.1:9/v1", "--model", "m", "--cache", str(tmp_path)]
    cases = {
        ("validate", *base, "--keep-pass-rate", "0.9:0.1"): "--keep-pass-rate",
        ("rollout", *base, "--tasks", "retail-9999"): "retail-9999",
        ("rollout", *base, "--user", "robot"): "--user",
        ("rollout", *base, "--offline", "--tasks", "retail-0001"): "no recorded response",
        ("rollout", str(tmp_path / "nothing"), "--base-url", "http://x/v1", "--model", "m"): "nothing",
        ("reverify", str(showcase.path), str(tmp_path / "missing.jsonl")): "missing.jsonl",
        ("rollout", *base, "--noise", "loud"): "unknown noise profile 'loud'",
        ("rollout", *base, "--noise", "all@3"): "noise level '3'",
        ("rollout", *base, "--curriculum", "0,0.5,1"): "add --noise",
        ("rollout", *base, "--noise", "tools", "--curriculum", "1,0.5"): "must rise from 0",
        ("rollout", *base, "--noise", "tools", "--curriculum", "0,x"): "comma-separated numbers",
    }
    for args, needle in cases.items():
        result = envforge_cli(*args)
        assert result.returncode == 2, (args, result.stderr)
        lines = error_lines(result.stderr)
        assert len(lines) == 1 and needle in lines[0], (args, result.stderr)
        assert "Traceback" not in result.stderr
    assert not list(Path("runs").glob("rollouts/*-m.jsonl")), "a refused run writes no trajectories"

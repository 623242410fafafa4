"""`envforge bench-suite`: throughput per executor against the first, and a loud failure when packages differ.

The Ray comparison starts a real local Ray: `slow`.
"""

from __future__ import annotations

import json
import statistics
import sys
from pathlib import Path

import pytest

from envforge.cli.app import main
from envforge.suite.report import BatchOutcome, SuiteReport
from envforge.suite.throughput import ExecutorRuns, SuiteBenchReport, find_mismatches
from tests.cli.test_bad_input import PREFIX, run_main
from tests.conftest import envforge_cli

SMALL = ["--rows", "60", "--tasks", "4"]


def made(blueprint: str, package_hash: str) -> BatchOutcome:
    return BatchOutcome(blueprint, True, 1.0, package_hash=package_hash, tasks=4)


def failed(blueprint: str) -> BatchOutcome:
    return BatchOutcome(blueprint, False, 1.0, error="broken")


def test_runs_that_wrote_the_same_packages_have_no_mismatch() -> None:
    runs = {"local run 1": [made("a.yaml", "1" * 64)], "ray run 1": [made("a.yaml", "1" * 64)]}
    assert find_mismatches(runs) == []


def test_a_different_package_or_a_failure_in_any_run_is_a_mismatch_naming_both_runs() -> None:
    runs = {
        "local run 1": [made("a.yaml", "1" * 64), made("b.yaml", "2" * 64)],
        "local run 2": [made("a.yaml", "1" * 64), made("b.yaml", "2" * 64)],
        "ray run 1": [made("a.yaml", "3" * 64), failed("b.yaml")],
    }
    assert find_mismatches(runs) == [
        f"a.yaml: local run 1 package {'1' * 16}, ray run 1 package {'3' * 16}",
        f"b.yaml: local run 1 package {'2' * 16}, ray run 1 failed",
    ]


def test_a_mismatch_is_printed_in_full_and_fails_the_command(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    outcomes = [made("blueprints/library.yaml", "1" * 64)]
    report = SuiteReport(outcomes, Path("out"), "local", 2, 0, 60, 4, 2.0)
    mismatch = f"blueprints/library.yaml: local run 1 package {'1' * 16}, ray run 1 package {'3' * 16}"
    bench = SuiteBenchReport(
        ["blueprints/library.yaml"], 0, 60, 4, 1, [ExecutorRuns("local", 2, 0.0, [report])], [mismatch]
    )
    monkeypatch.setattr("envforge.suite.throughput.run_suite_bench", lambda *args, **kwargs: bench)
    with pytest.raises(SystemExit) as info:
        main(["bench-suite", "library", "--executors", "local", "--json"])
    captured = capsys.readouterr()
    assert info.value.code == 1
    assert json.loads(captured.out)["mismatches"] == [mismatch]
    assert json.loads(captured.out)["hashes_agree"] is False
    assert captured.err.splitlines() == [
        f"HASH MISMATCH {mismatch}",
        f"{PREFIX}package hashes differ between the batches (see the 1 HASH MISMATCH lines): "
        "generation is not deterministic across executors; report it with those lines",
    ]


@pytest.mark.parametrize(
    ("executors", "message"),
    [
        ("local,rey", "--executors: unknown executor 'rey'; did you mean 'ray'?"),
        ("local,local", "--executors local,local: name each of local, ray at most once"),
        (
            "local,ray",
            "--executors local,ray: ray needs Ray, which is not installed: pip install 'envforge[ray]' "
            "(or compare without it: --executors local)",
        ),
    ],
    ids=["unknown", "twice", "ray missing"],
)
def test_bad_executors_are_one_line_and_exit_2(
    executors: str, message: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    assert run_main(capsys, "bench-suite", "library", "--executors", executors) == (2, message)


def test_bench_suite_reports_median_throughput_of_cold_batches_and_their_common_packages() -> None:
    result = envforge_cli("bench-suite", "library", "--executors", "local", "--repeat", "2", *SMALL, "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    (local,) = report["executors"]
    assert (report["baseline"], local["executor"], local["parallelism"], local["ratio"]) == ("local", "local", 1, 1.0)
    assert len(local["wall_seconds"]) == 2
    expected = statistics.median(3600 / seconds for seconds in local["wall_seconds"])
    assert local["packages_per_hour"] == pytest.approx(expected, rel=1e-3)
    assert local["tasks_per_second"] == pytest.approx(expected * 4 / 3600, abs=1e-3)  # rounded to 3 places
    (package,) = report["packages"]
    assert (package["blueprint"], len(package["package_hash"]), package["tasks"]) == ("blueprints/library.yaml", 64, 4)
    assert (report["hashes_agree"], report["mismatches"], report["failed"]) == (True, [], [])


@pytest.mark.slow
def test_bench_suite_compares_ray_with_the_local_pool_on_the_same_packages(
    ray_temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("ray")
    monkeypatch.setenv("RAY_TMPDIR", str(ray_temp_dir))
    result = envforge_cli(
        "bench-suite", "library", "clinic", "--executors", "local,ray", "--repeat", "1", *SMALL, "--json", timeout=300
    )
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    local, ray = report["executors"]
    assert (local["executor"], ray["executor"], report["hashes_agree"]) == ("local", "ray", True)
    assert ray["startup_seconds"] > 0
    assert ray["ratio"] == pytest.approx(ray["packages_per_hour"] / local["packages_per_hour"], rel=1e-2)
    assert [package["blueprint"] for package in report["packages"]] == [
        "blueprints/library.yaml",
        "blueprints/clinic.yaml",
    ]

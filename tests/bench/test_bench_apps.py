"""`envforge bench --app`: the rows are measured against their same-run baselines (a real server process and
a real Chromium). Only the relations that hold on any machine are asserted, never a speed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envforge.bench.apps import bench_apps
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.conftest import envforge_cli

pytestmark = pytest.mark.slow


def test_app_rows_measure_cold_start_reset_golden_replay_and_memory_per_context(retail_package: Path) -> None:
    rows = {
        row.key: row for row in bench_apps(load_package(open_package(retail_package)), "phone", repeat=2, contexts=2)
    }
    assert list(rows) == [
        "app_cold_start",
        "app_reset",
        "app_reset_kept_alive",
        "app_golden_replay",
        "app_context_memory",
    ]
    cold, reset, memory = rows["app_cold_start"], rows["app_reset"], rows["app_context_memory"]
    golden = rows["app_golden_replay"]
    assert golden.samples == 10 and golden.baseline_samples == 10
    # clicking through pages in a browser always costs more than calling the same tools in process
    assert golden.median > golden.baseline_median > 0
    assert cold.samples == 2 and cold.median > 0 and cold.baseline_median > 0
    assert reset.baseline_median == cold.median and reset.median < cold.median
    assert memory.unit == "MB" and memory.median > 0 and memory.baseline_median > 0
    kept_alive = rows["app_reset_kept_alive"]
    assert kept_alive.baseline_median == reset.median and kept_alive.samples == 50
    # Nagle's algorithm left on makes every answer on a kept-alive connection wait ~40 ms for a delayed ACK
    assert kept_alive.median < 20


def test_bench_app_with_an_unknown_app_is_a_one_line_error(retail_package: Path) -> None:
    result = envforge_cli("bench", str(retail_package), "--app", "tablet")
    assert result.returncode == 2 and "'--app'" in result.stderr
    assert "'tablet' is not one of 'web', 'phone'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_bench_app_prints_json_rows(retail_package: Path) -> None:
    result = envforge_cli("bench", str(retail_package), "--app", "web", "--repeat", "5", "--json", timeout=300)
    assert result.returncode == 0, result.stderr
    assert [row["key"] for row in json.loads(result.stdout)["rows"]] == [
        "app_cold_start",
        "app_reset",
        "app_reset_kept_alive",
        "app_golden_replay",
        "app_context_memory",
    ]

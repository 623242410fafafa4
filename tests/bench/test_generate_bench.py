"""The generation row of `envforge bench`."""

from __future__ import annotations

import json

from envforge.bench.generate import GENERATE_GOAL_S, bench_generate
from envforge.runtime.opened_package import open_package
from tests.conftest import REPO

SHOWCASE = REPO / "generated" / "showcase" / "retail"


def test_generation_is_timed_cold_and_against_a_cached_rerun() -> None:
    row = bench_generate(open_package(SHOWCASE), runs=2)
    assert row.key == "generate" and row.unit == "s"
    assert row.samples == 2 and row.baseline_samples == 2
    assert 0 < row.baseline_median < row.median
    assert row.goal == GENERATE_GOAL_S
    assert json.loads(json.dumps(row.as_dict()))["measure"] == "generate (200 rows)"

"""`envforge bench --base-url`: rollout rows measured against a scripted endpoint (see endpoint.py for why).

The scripted agent answers in microseconds, so the environment's share here is far above what it is beside
a real model; the test checks the figures are measured and consistent, not their size.
"""

from __future__ import annotations

import json

from envforge.bench.rollouts import BENCH_CONFIG, bench_rollouts
from envforge.runtime.episode import EnvPackage
from tests.conftest import envforge_cli
from tests.rollouts.endpoint import oracle_agent, serve


def test_rollout_rows_report_environment_share_and_throughput_per_concurrency(showcase: EnvPackage) -> None:
    with serve(oracle_agent(showcase)) as (url, endpoint):
        rows = bench_rollouts(showcase, url, "scripted", concurrencies=(1, 4), episodes=4)
    assert [row.key for row in rows] == ["rollout_env_share", "rollout_c1", "rollout_c4"]
    share = rows[0]
    assert 0 < share.median < 100 and share.samples == 8
    assert share.median + share.baseline_median == 100
    assert rows[1].ratio == 1.0 and rows[1].samples == 4
    assert "episodes/min" in rows[2].note and "0 infrastructure failures" in rows[2].note
    # An episode makes its oracle's calls and a final answer, cut at the bench's turn limit.
    played = [min(len(t.oracle) + 1, BENCH_CONFIG.max_turns) for t in list(showcase.tasks.values())[:4]]
    assert endpoint.requests == sum(played) * 2


def test_bench_base_url_without_model_is_a_one_line_error(showcase: EnvPackage) -> None:
    result = envforge_cli("bench", str(showcase.path), "--base-url", "http://127.0.0.1:9/v1")
    assert result.returncode == 2 and result.stderr.strip().count("\n") == 0
    assert "--model" in result.stderr


def test_bench_base_url_prints_rows_as_json(showcase: EnvPackage) -> None:
    with serve(oracle_agent(showcase)) as (url, _):
        result = envforge_cli(
            "bench",
            str(showcase.path),
            "--base-url",
            url,
            "--model",
            "s",
            "--concurrency",
            "1,2",
            "--episodes",
            "2",
            "--json",
        )
    assert result.returncode == 0, result.stderr
    keys = [row["key"] for row in json.loads(result.stdout)["rows"]]
    assert keys == ["rollout_env_share", "rollout_c1", "rollout_c2"]

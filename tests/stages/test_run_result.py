"""What a generation run says about itself: a row per stage, its JSON, and what its package's report warns of."""

from __future__ import annotations

import json
from pathlib import Path

from envforge.pipeline.runner import StageResult
from envforge.stages.generate import RunResult


def _run(package: Path) -> RunResult:
    stages = [StageResult("schema", "cached", "a" * 64, 0.004), StageResult("package", "built", "b" * 64, 1.5)]
    return RunResult("envforge/clinic-v1", "clinic", package, stages)


def test_a_run_shows_each_stage_with_its_seconds_and_short_hash_and_its_package_hash(tmp_path: Path) -> None:
    run = _run(tmp_path)
    table = run.table()
    assert table.title == f"envforge/clinic-v1 -> {tmp_path}"
    assert table.rows == [("schema", "cached", "0.00", "a" * 16), ("package", "built", "1.50", "b" * 16)]
    assert run.as_dict()["package_hash"] == "b" * 64
    assert run.as_dict()["stages"][0] == {
        "stage": "schema",
        "status": "cached",
        "content_hash": "a" * 64,
        "seconds": 0.004,
    }


def test_a_run_warns_of_its_shortfall_and_of_each_write_action_no_task_makes(tmp_path: Path) -> None:
    report = {"shortfall": "3 of 5 requested tasks accepted", "mix": {"unreached": {"refund": "no paid order"}}}
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    assert _run(tmp_path).warnings() == ["3 of 5 requested tasks accepted", "refund: no task makes it: no paid order"]


def test_a_run_whose_package_has_no_report_or_nothing_to_report_warns_of_nothing(tmp_path: Path) -> None:
    assert _run(tmp_path / "missing").warnings() == []
    (tmp_path / "report.json").write_text(json.dumps({"shortfall": "", "mix": None}), encoding="utf-8")
    assert _run(tmp_path).warnings() == []


def test_a_run_warns_of_each_policy_no_task_hinges_on_with_why(tmp_path: Path) -> None:
    why = (
        "no drafted request of renew_loan breaks it: the seeded rows and the values drawn all fall on its allowed side"
    )
    idle = {"get_loan": "the tasks reach loan rows through list_loans, which shows every field it does"}
    report = {"shortfall": "", "mix": {"unreached": {}, "unexercised": {"max_renewals": why}, "idle_tools": idle}}
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    assert _run(tmp_path).warnings() == [f"policy max_renewals: no task hinges on it: {why}"]

"""The envforge command as a user runs it: generate, batch, schema."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from envforge.stages.registry import STAGES
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import check_package_integrity
from tests.conftest import REPO, envforge_cli


def test_generate_by_shipped_name_writes_a_complete_package_and_reports_json(tmp_path: Path) -> None:
    result = envforge_cli("generate", "retail", "-o", str(tmp_path), "--rows", "300", "--tasks", "10", "--json")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["env_id"] == "envforge/retail-v0"
    assert [stage["stage"] for stage in summary["stages"]] == [
        *["ontology", "toolgraph", "state", "tooltests", "tasks", "verifiers", "review", "apps", "uitasks", "package"]
    ]
    assert check_package_integrity(open_for_check(tmp_path / "retail")) == []
    again = json.loads(
        envforge_cli("generate", "retail", "-o", str(tmp_path), "--rows", "300", "--tasks", "10", "--json").stdout
    )
    assert {stage["status"] for stage in again["stages"]} == {"cached"}
    assert again["package_hash"] == summary["package_hash"]


def test_generate_prints_a_stage_table_for_people(tmp_path: Path) -> None:
    result = envforge_cli(
        "generate", str(REPO / "blueprints" / "retail.yaml"), "-o", str(tmp_path), "--rows", "200", "--tasks", "10"
    )
    assert result.returncode == 0, result.stderr
    assert "envforge/retail-v0" in result.stdout
    for stage in ("ontology", "toolgraph", "state", "tooltests", "tasks", "verifiers", "review", "apps", "package"):
        assert stage in result.stdout


def without_timing(report: dict[str, Any]) -> dict[str, Any]:
    """A suite report less what differs between two runs of one suite."""
    rows = [{key: value for key, value in row.items() if key != "timing"} for row in report["blueprints"]]
    totals = {key: value for key, value in report["totals"].items() if key != "timing"}
    return {**report, "blueprints": rows, "totals": totals}


def test_batch_generates_the_good_blueprints_and_reports_the_bad_one(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text((REPO / "blueprints" / "retail.yaml").read_text().replace("person: customer", "person: custmer"))
    out = tmp_path / "out"
    command = ["batch", "retail", str(broken), "airline", "-o", str(out), "--rows", "200", "--tasks", "10"]
    result = envforge_cli(*command, "--workers", "2", "--json")
    assert result.returncode == 2, result.stderr
    report = json.loads(result.stdout)
    assert report == json.loads((out / "suite.json").read_text(encoding="utf-8"))
    rows = report["blueprints"]
    assert [(row["ok"], row["package"], row["user_error"]) for row in rows] == [
        (True, "retail", False),
        (False, "", True),
        (True, "airline", False),
    ]
    assert "did you mean 'customer'" in rows[1]["error"]
    assert [row["tasks"] for row in rows] == [len(STAGES), 0, len(STAGES)]
    assert {key: report["totals"][key] for key in ("packages_ok", "packages_failed", "tasks")} == {
        "packages_ok": 2,
        "packages_failed": 1,
        "tasks": 20,
    }
    assert (report["executor"], report["workers"]) == ("local", 2)
    assert check_package_integrity(open_for_check(out / "retail")) == []
    assert check_package_integrity(open_for_check(out / "airline")) == []
    again = json.loads(envforge_cli(*command, "--workers", "2", "--json").stdout)
    assert without_timing(again) == without_timing(report)
    assert [row["timing"]["stages_cached"] for row in again["blueprints"]] == [len(STAGES), 0, len(STAGES)]
    assert again["totals"]["timing"]["stages_built"] == 0


def test_schema_prints_the_committed_schema() -> None:
    result = envforge_cli("schema")
    assert result.returncode == 0
    assert result.stdout == (REPO / "blueprints" / "schema.json").read_text(encoding="utf-8")

"""The envforge command as a user runs it: generate, batch, schema."""

from __future__ import annotations

import json
from pathlib import Path

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
    assert check_package_integrity(tmp_path / "retail") == []
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


def test_batch_generates_the_good_blueprints_and_reports_the_bad_one(tmp_path: Path) -> None:
    broken = tmp_path / "broken.yaml"
    broken.write_text((REPO / "blueprints" / "retail.yaml").read_text().replace("person: customer", "person: custmer"))
    out = tmp_path / "out"
    result = envforge_cli(
        *["batch", "retail", str(broken), "airline", "-o", str(out)],
        *["--rows", "200", "--tasks", "10", "--workers", "2", "--json"],
    )
    assert result.returncode == 2, result.stderr
    outcomes = json.loads(result.stdout)
    assert [outcome["ok"] for outcome in outcomes] == [True, False, True]
    assert "did you mean 'customer'" in outcomes[1]["error"]
    assert check_package_integrity(out / "retail") == []
    assert check_package_integrity(out / "airline") == []
    rerun = json.loads(
        envforge_cli("batch", "retail", "airline", "-o", str(out), "--rows", "200", "--tasks", "10", "--json").stdout
    )
    assert [outcome["package_hash"] for outcome in rerun] == [outcomes[0]["package_hash"], outcomes[2]["package_hash"]]


def test_schema_prints_the_committed_schema() -> None:
    result = envforge_cli("schema")
    assert result.returncode == 0
    assert result.stdout == (REPO / "blueprints" / "schema.json").read_text(encoding="utf-8")

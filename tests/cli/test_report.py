"""`envforge report PACKAGE...`: the verifier gate per class of run and domain, from each package's report.json."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from envforge.hashing import hash_bytes
from envforge.ir.verification import ValidationReport
from envforge.package import update_package
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_tasks
from tests.conftest import envforge_cli
from tests.stages.adversaries import VARIATIONS


def _report(package: Path) -> ValidationReport:
    return ValidationReport.model_validate_json(open_package(package).read("report.json"))


def test_every_package_is_a_column_with_each_cheat_at_zero_and_each_legitimate_variation_accepted_every_time(
    packages: dict[str, Path],
) -> None:
    result = envforge_cli("report", *(str(path) for path in packages.values()), "--json")
    assert result.returncode == 0, result.stderr
    table = json.loads(result.stdout)
    assert table["passed"] is True
    assert [column["domain"] for column in table["packages"]] == list(packages)
    for column in table["packages"]:
        report = _report(Path(column["path"]))
        assert column["cheats"] == {
            kind: {"accepted": 0, "played": rate.mutants} for kind, rate in report.gate.by_class.items()
        }
        assert set(column["legitimate"]) >= VARIATIONS, column["domain"]
        assert all(cell["accepted"] == cell["played"] > 0 for cell in column["legitimate"].values()), column
        played = sum(cell["played"] for cell in column["legitimate"].values())
        assert played == sum(run.kind == "legitimate" for task in report.tasks if task.accepted for run in task.mutants)
        assert report.mix is not None
        conditions = {int(number): count for number, count in column["conditions_per_policy_task"].items()}
        assert conditions == report.mix.conditions_per_policy_task
        assert sum(conditions.values()) == sum(
            bool(task.policies) for task in load_tasks(open_package(Path(column["path"]))).values()
        )


def test_the_table_has_a_row_per_class_and_a_column_per_domain(packages: dict[str, Path]) -> None:
    retail, clinic = packages["retail"], packages["clinic"]
    result = envforge_cli("report", str(retail), str(clinic))
    assert result.returncode == 0, result.stderr
    header = next(line for line in result.stdout.splitlines() if "class" in line and "retail" in line)
    assert header.index("retail") < header.index("clinic")
    rows = {
        cells[1].strip(): [cell.strip() for cell in cells[2:-1]]
        for line in result.stdout.splitlines()
        if len(cells := line.split("│")) == 5
    }
    gate, other = _report(retail).gate, _report(clinic).gate
    wrong = gate.by_class["wrong_argument"], other.by_class["wrong_argument"]
    assert rows["wrong_argument"] == [f"0/{wrong[0].mutants}", f"0/{wrong[1].mutants}"]
    confirm = gate.legitimate["confirm_first"].played, other.legitimate["confirm_first"].played
    assert rows["legitimate:confirm_first"] == [f"{confirm[0]}/{confirm[0]}", f"{confirm[1]}/{confirm[1]}"]
    mix = _report(retail).mix
    assert mix is not None and mix.conditions_per_policy_task
    shown = ", ".join(f"{number}: {count}" for number, count in mix.conditions_per_policy_task.items())
    assert (
        f"retail: conditions per policy task (how many of its policies' conditions the verdict turns on): {shown}"
        in " ".join(result.stdout.split())
    )


def test_a_cheat_accepted_or_a_legitimate_run_rejected_exits_1_naming_it(retail_package: Path, tmp_path: Path) -> None:
    package = tmp_path / "retail"
    shutil.copytree(retail_package, package)
    gate = _report(package).gate
    by_class = {**gate.by_class, "disclosure": gate.by_class["disclosure"].model_copy(update={"false_positives": 1})}
    rejected = gate.legitimate["refused_first"].model_copy(update={"accepted": 0})
    update_package(
        package,
        {
            "gate": gate.model_copy(
                update={"by_class": by_class, "legitimate": {**gate.legitimate, "refused_first": rejected}}
            )
        },
    )
    result = envforge_cli("report", str(package))
    assert result.returncode == 1
    played = gate.legitimate["refused_first"].played
    assert f"FAILED retail: 1 of {gate.by_class['disclosure'].mutants} disclosure cheats rewarded" in result.stderr
    assert f"FAILED retail: {played} of {played} legitimate:refused_first runs rejected" in result.stderr
    assert json.loads(envforge_cli("report", str(package), "--json").stdout)["passed"] is False


def _replace_report(package: Path, data: bytes) -> None:
    """Write report.json and its hash into the manifest, as a package whose report no longer parses would be."""
    (package / "report.json").write_bytes(data)
    manifest = yaml.safe_load((package / "envforge.yaml").read_text(encoding="utf-8"))
    manifest["files"]["report.json"] = hash_bytes(data)
    (package / "envforge.yaml").write_text(yaml.safe_dump(manifest, sort_keys=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("case", "problem"),
    [
        ("missing_folder", "no such folder"),
        ("folder_of_packages", "not an environment package (no envforge.yaml); did you mean"),
        ("no_report", "report.json: missing"),
        ("not_a_report", "report.json: not a validation report (env_id: Field required)"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(retail_package: Path, tmp_path: Path, case: str, problem: str) -> None:
    package = tmp_path / "suite" / "retail"
    shutil.copytree(retail_package, package)
    target = {"missing_folder": tmp_path / "nowhere", "folder_of_packages": tmp_path / "suite"}.get(case, package)
    if case == "no_report":
        (package / "report.json").unlink()
    if case == "not_a_report":
        _replace_report(package, b"{}")
    result = envforge_cli("report", str(target))
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"envforge: error: {target}"), result.stderr
    assert problem in lines[0], lines[0]

"""`envforge lint`: a clean blueprint exits 0 with a line per action its tasks reach; an unreached action is a
warning (exit 1 with --strict); a broken blueprint is one line and exit 2."""

from __future__ import annotations

import json
from pathlib import Path

from envforge.ir.loading import load_blueprint
from envforge.suite.scaffold import render_blueprint
from tests.blueprint_edits import edit, line_of
from tests.cli.test_bad_input import error_line
from tests.conftest import REPO, envforge_cli
from tests.guide_snippets import guide_snippet

SMALL = ("--rows", "300", "--tasks", "20")
RESCHEDULE_PRECONDITION = "      - {require: args.date >= today, error: The new day must not be in the past.}\n"


def test_lint_on_a_shipped_blueprint_passes_the_static_checks_and_reaches_every_action() -> None:
    result = envforge_cli("lint", "library", timeout=300)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith(
        "library: envforge/library-v0: static checks passed (entities 8, relations 9, actions 12"
    )
    assert lines[1].startswith("dry run (1000 rows, seed 0, ")
    assert "150 of 150 tasks accepted" in lines[1]
    actions = [action.name for action in load_blueprint(REPO / "blueprints" / "library.yaml").actions]
    warned = [line for line in lines[2:-1] if line.startswith("warning: ")]
    reached = [line.split(":")[0].strip() for line in lines[2:-1] if line not in warned]
    assert reached == actions
    # Every declared policy is in a task or named with why it is not (issue #24): no warning is about anything else.
    policies = {policy.id for policy in load_blueprint(REPO / "blueprints" / "library.yaml").policies}
    # Invariants of the data are no request's to break, so they are never warned of.
    assert all(line.startswith("warning: policy ") and ": no task hinges on it: " in line for line in warned), warned
    named = {line.split()[2].rstrip(":") for line in warned}
    assert named < policies and "copies_not_negative" not in named
    assert lines[-1].startswith(f"{len(warned)} warnings in ")


def test_lint_names_an_unreached_action_with_its_reason_and_fails_only_with_strict(tmp_path: Path) -> None:
    # The guide's own example: a precondition no drawn date meets.
    template = render_blueprint("pet_clinic", Path("pet_clinic.yaml"))
    path = tmp_path / "pet_clinic.yaml"
    path.write_text(edit(RESCHEDULE_PRECONDITION, guide_snippet("unreachable-precondition"), template), "utf-8")
    warning = (
        "reschedule_booking: no task makes it: precondition_failed: "
        "A booking can be moved only to a day at least a week away."
    )
    lenient = envforge_cli("lint", str(path), *SMALL, timeout=300)
    assert lenient.returncode == 0, lenient.stderr
    assert f"warning: {warning}" in lenient.stdout.splitlines()
    strict = envforge_cli("lint", str(path), *SMALL, "--strict", "--json", timeout=300)
    assert strict.returncode == 1, strict.stderr
    report = json.loads(strict.stdout)
    assert report["warnings"][0] == warning
    assert all(" no task " in line for line in report["warnings"][1:]), report["warnings"]
    assert report["coverage"]["mix"]["by_action"]["reschedule_booking"] == 0


def test_lint_on_a_broken_blueprint_exits_2_with_one_located_line(tmp_path: Path) -> None:
    template = render_blueprint("pet_clinic", Path("pet_clinic.yaml"))
    path = tmp_path / "pet_clinic.yaml"
    broken = edit("max(customer.open_bookings - 1, 0)", "count(booking)", template)
    path.write_text(broken, "utf-8")
    result = envforge_cli("lint", str(path))
    assert result.returncode == 2
    assert error_line(result.stdout, result.stderr) == (
        f"{path}:{line_of(broken, 'count(booking)')}: actions[0].effects[1].set.open_bookings: "
        "unknown function 'count' in 'count(booking)'; expressions have no aggregates; keep a stored counter and increment "
        "it in the action's effects"
    )


def test_lint_without_coverage_runs_only_the_static_checks(tmp_path: Path) -> None:
    path = tmp_path / "pet_clinic.yaml"
    path.write_text(render_blueprint("pet_clinic", path), "utf-8")
    result = envforge_cli("lint", str(path), "--no-coverage", "--json")
    assert result.returncode == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["coverage"] is None
    assert report["warnings"] == []
    assert report["counts"] == {
        "entities": 2,
        "relations": 1,
        "actions": 2,
        "policies": 1,
        "invariants": 1,
        "personas": 2,
    }

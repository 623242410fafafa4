"""`envforge check`: shipped packages pass every check; tampered ones fail with a message naming what was changed."""

from __future__ import annotations

import json
import shutil
import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from envforge.cli.app import main
from envforge.ir.tasks import TaskSpec
from envforge.ir.uitasks import UI_TASKS_FILE, UITask
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_tasks
from envforge.validators.app_reachability import check_app_reachability
from envforge.validators.checks import run_checks
from envforge.validators.loaded_package import load_package, open_for_check
from envforge.validators.mcp_roundtrip import check_mcp_roundtrip
from envforge.validators.results import CheckResult, ConformanceError
from envforge.validators.seed_invariants import check_seed_invariants
from envforge.validators.ui_paths import check_ui_paths
from envforge.validators.verifier_gates import check_verifier_gates
from tests.conftest import BLUEPRINTS, envforge_cli

DOMAINS = [path.stem for path in BLUEPRINTS]
CHECKS = [
    ("envforge.integrity", "package_integrity"),
    ("envforge.integrity", "package_loads"),
    ("envforge.seed_invariants", "seed_invariants"),
    ("envforge.tool_behaviour", "tool_tests"),
    ("envforge.verifier_gates", "verifier_gates"),
    ("envforge.determinism", "oracle_determinism"),
    ("envforge.determinism", "reset_determinism"),
    ("envforge.mcp_roundtrip", "mcp_roundtrip"),
    ("envforge.apps", "app_reachability"),
    ("envforge.apps", "ui_paths"),
]
ALWAYS_REWARD = """

def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    return Verdict(reward=1.0, passed=True, components={}, reasons=[])
"""


def copy_package(package: Path, tmp_path: Path) -> Path:
    return Path(shutil.copytree(package, tmp_path / package.name))


def by_name(results: list[CheckResult]) -> dict[str, CheckResult]:
    return {result.name: result for result in results}


def first_task(package: Path, kind: str) -> TaskSpec:
    return next(task for task in load_tasks(open_package(package)).values() if task.kind == kind)


def run_main(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`envforge ARGS` in-process: (exit code, stdout, stderr)."""
    code: int | str | None = 0
    try:
        main(list(args))
    except SystemExit as exit_:
        code = exit_.code
    captured = capsys.readouterr()
    assert isinstance(code, int)
    return code, captured.out, captured.err


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_shipped_package_passes_every_check(domain: str, packages: dict[str, Path]) -> None:
    results = run_checks(open_for_check(packages[domain]), sample=10)

    assert [result.name for result in results] == [name for _, name in CHECKS]
    assert [(result.name, result.headline()) for result in results if not result.passed] == []
    gates = by_name(results)["verifier_gates"].message
    assert gates.startswith("10 of 30 tasks gated")
    assert "rewarded every legitimate variation (" in gates and "extra_read " in gates, gates


def test_the_cli_passes_a_shipped_package_and_writes_one_junit_testcase_per_check(
    retail_package: Path, tmp_path: Path
) -> None:
    junit = tmp_path / "reports" / "check.xml"

    run = envforge_cli("check", str(retail_package), "--sample", "5", "--junit", str(junit))

    assert run.returncode == 0, run.stdout + run.stderr
    assert "envforge check envforge/retail-v0: 10/10 passed" in run.stdout
    root = ET.parse(junit).getroot()
    suites = root.findall("testsuite")
    assert [suite.get("name") for suite in suites] == ["envforge check envforge/retail-v0"]
    cases = suites[0].findall("testcase")
    assert [(case.get("classname"), case.get("name")) for case in cases] == CHECKS
    assert (suites[0].get("tests"), suites[0].get("failures"), suites[0].get("skipped")) == ("10", "0", "0")
    assert list(root.iter("failure")) == []


@pytest.mark.parametrize("tamper", ["row_edited", "byte_flipped"])
def test_a_state_changed_after_generation_fails_with_exit_1_naming_state_sqlite(
    tamper: str, retail_package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = copy_package(retail_package, tmp_path)
    state = package / "state.sqlite"
    if tamper == "row_edited":
        with sqlite3.connect(state) as connection:
            connection.execute("UPDATE customer SET email = 'someone.else@example.com' WHERE rowid = 1")
        connection.close()
    else:
        data = bytearray(state.read_bytes())
        data[len(data) // 2] ^= 0xFF
        state.write_bytes(bytes(data))

    code, out, _ = run_main(capsys, "check", str(package), "--sample", "3")

    assert code == 1
    assert "FAILED package_integrity: files do not match envforge.yaml" in out
    assert "  - state.sqlite: content differs from the manifest's hash\n" in out


def test_a_verifier_that_rewards_everything_fails_its_gate_naming_the_task(
    retail_package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = copy_package(retail_package, tmp_path)
    task = first_task(package, "write")
    with (package / "verifiers" / f"{task.id}.py").open("a", encoding="utf-8") as handle:
        handle.write(ALWAYS_REWARD)
    junit = tmp_path / "check.xml"

    code, out, _ = run_main(capsys, "check", str(package), "--junit", str(junit))

    assert code == 1
    problem = f"{task.id}: initial_accepted: the verifier rewards the untouched initial state (verifiers/{task.id}.py)"
    assert f"FAILED verifier_gates: 1 of 30 verifiers failed the gate\n  - {problem}\n" in out
    assert f"  - verifiers/{task.id}.py: content differs from the manifest's hash\n" in out
    failures = {case.get("name"): case.find("failure") for case in ET.parse(junit).getroot().iter("testcase")}
    assert {name for name, failure in failures.items() if failure is not None} == {
        "package_integrity",
        "verifier_gates",
        # the golden UI paths of that task now "pass" on the untouched state too
        "ui_paths",
    }
    gate_failure = failures["verifier_gates"]
    assert gate_failure is not None
    assert gate_failure.get("message") == f"1 of 30 verifiers failed the gate: {problem}"


def test_a_verifier_expecting_another_answer_rejects_the_golden_run(retail_package: Path, tmp_path: Path) -> None:
    package = copy_package(retail_package, tmp_path)
    # A text answer, so that any other string is a value of its type.
    task = next(
        task
        for task in load_tasks(open_package(package)).values()
        if task.kind == "read" and task.verifier.answer is not None and task.verifier.answer.type == "text"
    )
    verifier = package / "verifiers" / f"{task.id}.py"
    source = verifier.read_text(encoding="utf-8")
    assert task.verifier.answer is not None
    expected = f"'value': {task.verifier.answer.value!r}"
    assert source.count(expected) == 1
    verifier.write_text(source.replace(expected, "'value': 'not the answer'"), "utf-8")

    with pytest.raises(ConformanceError) as failure:
        check_verifier_gates(load_package(open_for_check(package), sample=None))

    assert failure.value.summary == "1 of 30 verifiers failed the gate"
    assert failure.value.problems == (
        f"{task.id}: golden_rejected: the answer does not state 'not the answer' (verifiers/{task.id}.py)",
    )


def test_a_state_that_is_not_sqlite_fails_to_load_and_the_behaviour_checks_are_skipped(
    retail_package: Path, tmp_path: Path
) -> None:
    package = copy_package(retail_package, tmp_path)
    (package / "state.sqlite").write_bytes(b"not a database at all, just some bytes" * 200)

    results = by_name(run_checks(open_for_check(package), sample=3))

    assert results["package_integrity"].details == ("state.sqlite: content differs from the manifest's hash",)
    assert results["package_loads"].status == "failed"
    assert "state.sqlite: not a SQLite database" in results["package_loads"].details[0]
    skipped = [name for name, result in results.items() if result.status == "skipped"]
    assert skipped == [name for _, name in CHECKS[2:]]


def test_a_tools_json_that_disagrees_with_the_served_tools_fails_the_mcp_round_trip(
    retail_package: Path, tmp_path: Path
) -> None:
    package = copy_package(retail_package, tmp_path)
    tools = json.loads((package / "tools.json").read_text(encoding="utf-8"))
    tools["tools"] = tools["tools"][1:]
    (package / "tools.json").write_text(json.dumps(tools), encoding="utf-8")

    with pytest.raises(ConformanceError) as failure:
        check_mcp_roundtrip(load_package(open_for_check(package), sample=3))

    assert failure.value.problems == (
        f"tools.json lists {len(tools['tools'])} tools, toolgraph.json {len(tools['tools']) + 1}",
    )


def test_a_folder_that_is_not_a_package_exits_2_with_one_error_line(
    retail_package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(retail_package, tmp_path / "retail")

    code, out, err = run_main(capsys, "check", str(tmp_path))

    assert (code, out) == (2, "")
    assert err == (
        f"envforge: error: {tmp_path}: not an environment package (no envforge.yaml); did you mean {tmp_path / 'retail'}?\n"
    )


def test_an_app_whose_detail_screen_drops_the_action_links_fails_reachability(
    retail_package: Path, tmp_path: Path
) -> None:
    package = copy_package(retail_package, tmp_path)
    detail = package / "apps" / "phone" / "detail.html"
    # The phone's action sheet lists no action: its links come from the shared `action_links` macro.
    detail.write_text(detail.read_text().replace("ui.action_links(actions,", "ui.action_links([],"))
    with pytest.raises(ConformanceError) as failure:
        check_app_reachability(load_package(open_for_check(package), sample=3))
    assert "phone: cancel_order is not linked from the order screen" in failure.value.problems
    assert not any(problem.startswith("web:") for problem in failure.value.problems)


def test_a_golden_ui_path_that_stops_before_confirming_or_names_no_task_fails_ui_paths(
    retail_package: Path, tmp_path: Path
) -> None:
    package = copy_package(retail_package, tmp_path)
    posed = [UITask.model_validate_json(line) for line in (package / UI_TASKS_FILE).read_text().splitlines()]
    cut = next(task for task in posed if task.app == "web" and task.steps[-1].target == "confirm")
    stray = posed[0].model_copy(update={"task_id": "retail-9999"})
    edited = [task.model_copy(update={"steps": task.steps[:-1]}) if task is cut else task for task in posed]
    (package / UI_TASKS_FILE).write_text("".join(task.model_dump_json() + "\n" for task in [*edited, stray]))
    with pytest.raises(ConformanceError) as failure:
        check_ui_paths(load_package(open_for_check(package), sample=None))
    problems = failure.value.problems
    assert f"{stray.app} retail-9999: no such task in tasks.jsonl" in problems
    assert any(problem.startswith(f"web {cut.task_id}: fails its verifier: missing") for problem in problems)
    assert len(problems) == 2


def test_a_state_whose_order_total_was_edited_fails_the_invariant_check_naming_the_order(
    retail_package: Path, tmp_path: Path
) -> None:
    package = copy_package(retail_package, tmp_path)
    with sqlite3.connect(package / "state.sqlite") as connection:
        # An order nothing was refunded on: its payment, which captured the total, is then the only other row off.
        order, payment = connection.execute(
            'SELECT order_id, payment_id FROM "order" JOIN payment USING (order_id) WHERE payment_id NOT IN '
            "(SELECT payment_id FROM refund) ORDER BY order_id"
        ).fetchone()
        connection.execute('UPDATE "order" SET total = total + 10 WHERE order_id = ?', (order,))
    connection.close()

    with pytest.raises(ConformanceError) as info:
        check_seed_invariants(load_package(open_for_check(package), sample=None))

    assert info.value.summary == "2 of 17 seed invariants are violated"
    assert info.value.problems == (
        f"order_total_is_sum_of_lines: 1 order row breaks it (e.g. {order}): An order's total is the sum of unit "
        "price times quantity over its lines that are not cancelled.",
        f"payment_is_what_the_lines_cost: 1 payment row breaks it (e.g. {payment}): A payment captured the order's "
        "total, plus the price of the lines cancelled and refunded since.",
    )


def test_a_picker_whose_choices_lost_their_labels_fails_reachability(retail_package: Path, tmp_path: Path) -> None:
    package = copy_package(retail_package, tmp_path)
    shared = package / "apps" / "shared" / "_ui.html"
    shared.write_text(
        shared.read_text().replace('<label for="{{ id }}" class="pick-card">', '<label class="pick-card">')
    )
    with pytest.raises(ConformanceError) as failure:
        check_app_reachability(load_package(open_for_check(package), sample=3))
    for app in ("web", "phone"):
        assert f"{app}: the update_shipping_address form lacks labelled inputs for ['address_id']" in (
            failure.value.problems
        )

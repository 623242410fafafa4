"""Golden UI paths replayed in a real headless Chromium, for a sample of tasks in every shipped domain and
both apps: the verifier fails on the initial state, passes after the replay, and fails after a no-op run,
and no page logs an error or fails a request on the way."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest

from envforge.ir.uitasks import UIStep
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.validators.ui_replay import record_replay, replay_ui_tasks
from tests.browser import INSTALL_PLAYWRIGHT, find_chromium, unavailable
from tests.conftest import BLUEPRINTS, envforge_cli

DOMAINS = [path.stem for path in BLUEPRINTS]
SAMPLE = 2


@pytest.fixture(autouse=True)
def browser_available() -> None:
    find_chromium()
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        unavailable(f"playwright is not installed; {INSTALL_PLAYWRIGHT}")


@pytest.mark.parametrize("domain", DOMAINS)
def test_golden_paths_pass_in_chromium_in_both_apps(packages: dict[str, Path], domain: str) -> None:
    path = packages[domain]
    tasks = load_ui_tasks(open_package(path))
    outcomes, version = replay_ui_tasks(load_package(open_package(path)), tasks, ("web", "phone"), sample=SAMPLE)
    assert version.split(".")[0].isdigit()
    assert [outcome.task.app for outcome in outcomes] == ["web"] * SAMPLE + ["phone"] * SAMPLE
    for outcome in outcomes:
        assert outcome.passed, (outcome.task.task_id, outcome.task.app, outcome.reason, outcome.detail)
        assert outcome.problems == [] and outcome.toasts_without_writes == 0
        assert 0 < outcome.seconds < 30


def test_a_path_missing_its_last_click_fails_the_verifier(packages: dict[str, Path]) -> None:
    """The replay is a real gate: without the final confirmation the state is unchanged and the task fails."""
    path = packages["retail"]
    task = next(t for t in load_ui_tasks(open_package(path)) if t.app == "web" and t.steps[-1].target == "confirm")
    cut = task.model_copy(update={"steps": task.steps[:-1]})
    wrong = task.model_copy(update={"steps": [*task.steps[:1], UIStep(action="click", target="row-NOPE")]})
    outcomes, _ = replay_ui_tasks(load_package(open_package(path)), [cut, wrong], ("web",))
    assert [outcome.reason for outcome in outcomes] == ["golden_failed", "step_failed"]
    assert "missing" in outcomes[0].detail
    assert "row-NOPE" in outcomes[1].detail


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_verify_ui_records_replays_and_screenshots_and_the_package_still_checks(
    packages: dict[str, Path], tmp_path: Path
) -> None:
    package = tmp_path / "retail"
    shutil.copytree(packages["retail"], package)
    result = envforge_cli("verify-ui", str(package), "--sample", "2", "--json", timeout=300)
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert {app: (r["replayed"], r["passed"]) for app, r in summary["apps"].items()} == {
        "phone": (2, 2),
        "web": (2, 2),
    }
    report = json.loads((package / "report.json").read_text())
    assert report["ui_replay"]["apps"] == summary["apps"]
    shots = sorted((package / "report/screenshots").glob("*.png"))
    names = {shot.stem for shot in shots}
    assert {"web-home", "web-list", "web-detail", "web-form", "phone-home", "phone-detail", "phone-form"} <= names
    assert _png_size((package / "report/screenshots/web-home.png").read_bytes()) == (1280, 800)
    assert _png_size((package / "report/screenshots/phone-home.png").read_bytes()) == (390, 844)
    assert "## UI replay in Chromium" in (package / "report.md").read_text()
    checked = envforge_cli("check", str(package), "--sample", "3", timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_verify_ui_refuses_an_unknown_app_in_one_line(packages: dict[str, Path]) -> None:
    result = envforge_cli("verify-ui", str(packages["retail"]), "--app", "tablet")
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "--app: 'tablet'" in result.stderr


def test_verify_ui_on_a_folder_that_is_not_a_package_says_so_in_one_line(tmp_path: Path) -> None:
    result = envforge_cli("verify-ui", str(tmp_path / "nope"))
    assert result.returncode == 2
    assert (
        result.stderr.strip()
        == f"envforge: error: {tmp_path / 'nope'}: no such folder; point at a package made by `envforge generate`"
    )


def test_a_task_dropped_in_chromium_keeps_its_reason_through_later_runs(
    packages: dict[str, Path], tmp_path: Path
) -> None:
    package_path = tmp_path / "retail"
    shutil.copytree(packages["retail"], package_path)
    package = load_package(open_package(package_path))
    posed = load_ui_tasks(open_package(package_path))
    broken = next(t for t in posed if t.app == "web" and t.steps[-1].target == "confirm")
    posed = [t.model_copy(update={"steps": t.steps[:-1]}) if t is broken else t for t in posed]
    outcomes, version = replay_ui_tasks(package, [t for t in posed if t.task_id == broken.task_id], ("web",))
    record_replay(open_package(package_path), posed, outcomes, version, None)
    again = load_ui_tasks(open_package(package_path))
    assert (broken.task_id, "web") not in {(t.task_id, t.app) for t in again}
    other = next(t for t in again if t.app == "web")
    outcomes, version = replay_ui_tasks(package, [other], ("web",))
    report = record_replay(open_package(package_path), again, outcomes, version, None)
    dropped = json.loads((package_path / "apps/ui_dropped.json").read_text())
    # Dropped when posed (policy tasks, questions asked once a write is done and changes of mind are never posed on
    # a screen), and now the one Chromium could not do.
    earlier = [item for item in dropped if item["reason"] != "chromium_golden_failed"]
    assert {item["reason"] for item in earlier} <= {"policy", "question_after", "change_of_mind"}
    assert [(d["task_id"], d["app"], d["reason"]) for d in dropped if d not in earlier] == [
        (broken.task_id, "web", "chromium_golden_failed")
    ]
    accepted = len((package_path / "tasks.jsonl").read_text().splitlines())
    assert report.ui["web"].posed + sum(report.ui["web"].dropped.values()) == accepted

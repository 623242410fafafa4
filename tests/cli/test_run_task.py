"""`envforge run-task PACKAGE TASK --oracle`: the whole loop in one command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envforge.runtime.apps.uitasks import find_ui_task
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_tasks
from tests.browser import find_chromium
from tests.conftest import envforge_cli


@pytest.mark.parametrize("via", ["session", "mcp"])
def test_replaying_an_oracle_prints_a_passing_verdict(retail_package: Path, via: str) -> None:
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "multi_write")
    result = envforge_cli("run-task", str(retail_package), task.id, "--oracle", "--via", via, "--json")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["passed"] is True and verdict["reward"] == 1.0
    assert [call["tool"] for call in verdict["calls"]] == [call.name for call in task.oracle]
    assert all(call["ok"] for call in verdict["calls"])


def test_an_unknown_task_is_a_one_line_error_with_a_suggestion(retail_package: Path) -> None:
    result = envforge_cli("run-task", str(retail_package), "retail-9999", "--oracle")
    assert result.returncode == 2
    assert result.stderr.startswith("envforge: error: ") and "no task 'retail-9999'" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("app", ["phone", "web"])
def test_replaying_a_golden_ui_path_in_chromium_prints_a_passing_verdict(retail_package: Path, app: str) -> None:
    """Real Chromium: the command clicks the path through the app and judges the session it changed."""
    find_chromium()
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "multi_write")
    posed = find_ui_task(open_package(retail_package), task.id, "phone" if app == "phone" else "web")
    result = envforge_cli("run-task", str(retail_package), task.id, "--app", app, "--oracle", "--json")
    assert result.returncode == 0, result.stderr
    verdict = json.loads(result.stdout)
    assert verdict["passed"] is True and verdict["instruction"] == posed.instruction
    tools = load_environment(open_package(retail_package)).tools
    writes = [call.name for call in task.oracle if tools[call.name].kind == "write"]
    assert [call["tool"] for call in verdict["calls"]] == writes


def test_an_unknown_app_is_a_one_line_error(retail_package: Path) -> None:
    result = envforge_cli("run-task", str(retail_package), "retail-0001", "--app", "tablet", "--oracle")
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("envforge: error: Invalid value for '--app'")
    assert "'tablet' is not one of 'web', 'phone'" in lines[0]

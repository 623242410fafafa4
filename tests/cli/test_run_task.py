"""`envforge run-task PACKAGE TASK --oracle`: the whole loop in one command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envforge.runtime.tasks import load_tasks
from tests.conftest import envforge_cli


@pytest.mark.parametrize("via", ["session", "mcp"])
def test_replaying_an_oracle_prints_a_passing_verdict(retail_package: Path, via: str) -> None:
    task = next(t for t in load_tasks(retail_package).values() if t.kind == "multi_write")
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

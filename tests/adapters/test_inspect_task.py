"""The inspect_ai bridge, scored through inspect_ai's own `eval` (the real library, in its own venv)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.adapters.hub_venv import run_driver
from tests.test_showcase import SHOWCASE


@pytest.mark.slow
def test_inspect_eval_scores_the_oracle_1_and_a_run_missing_its_last_call_0(tmp_path: Path) -> None:
    result = run_driver("inspect", "inspect_drive.py", str(SHOWCASE), str(tmp_path))
    assert result.returncode == 0, result.stderr[-3000:]
    runs = json.loads(result.stdout.strip().splitlines()[-1])
    tasks = {json.loads(line)["id"] for line in (SHOWCASE / "tasks.jsonl").read_text(encoding="utf-8").splitlines()}
    for run, reward in (("golden", 1.0), ("wrong", 0.0)):
        assert runs[run]["status"] == "success"
        scores = runs[run]["scores"]
        assert set(scores) == tasks
        assert {task_id: score["value"] for task_id, score in scores.items()} == dict.fromkeys(tasks, reward)
        assert all(score["passed"] is (reward == 1.0) for score in scores.values())

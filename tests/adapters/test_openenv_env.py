"""The OpenEnv bridge, served by OpenEnv's own server and played through its clients over real HTTP and WebSocket
(the real library, in its own venv)."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.adapters.hub_venv import hub_python, run_driver
from tests.conftest import REPO
from tests.test_showcase import SHOWCASE


@pytest.mark.slow
def test_openenv_server_rewards_the_oracle_1_in_parallel_sessions_and_a_run_missing_its_last_call_0() -> None:
    result = run_driver("openenv", "openenv_drive.py", str(SHOWCASE))
    assert result.returncode == 0, result.stderr[-3000:]
    runs = json.loads(result.stdout.strip().splitlines()[-1])
    package = load_package(open_package(SHOWCASE))
    tasks = set(package.task_ids)
    golden, wrong = runs["golden"]["tasks"], runs["wrong"]["tasks"]
    assert set(golden) == set(wrong) == tasks
    for task_id in tasks:
        calls = len(package.task(task_id).oracle)
        run = golden[task_id]
        assert run["reset_task"] == task_id and run["prompt"] is True
        assert run["tools"] == len(package.env.tool_list())
        assert run["refused"] == [False] * calls
        assert run["rewards"] == [None] * calls + [1.0] and run["done"] == [False] * calls + [True]
        assert run["verdict"]["passed"] is True and all(run["verdict"]["components"].values())
        assert run["state"] == {"task_id": task_id, "calls": calls, "step_count": calls + 1}
        missed = wrong[task_id]
        assert missed["refused"] == {"error": True, "code": "unknown_tool"}
        assert missed["rewards"] == [None] * (calls - 1) + [0.0] and missed["done"][-1] is True
        assert missed["verdict"]["passed"] is False and missed["verdict"]["reasons"]
    assert all("reset first" in error for error in runs["golden"]["after_end"])
    assert runs["action_fields"] == ["arguments", "message", "metadata", "tool_name"]


@pytest.mark.slow
def test_serving_a_folder_that_is_no_package_is_one_line_and_exit_2(tmp_path: Path) -> None:
    command = [str(hub_python("openenv")), "-m", "envforge.adapters.openenv_env", str(tmp_path), "--port", "0"]
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    result = subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 2
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"{tmp_path}: holds no environment package") and "run `envforge generate`" in line

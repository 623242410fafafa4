"""The tool-test workers give one report however many share the tools, die with the run that started them, and a
later run removes what a killed run left."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from envforge.executors import sharing_cores
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.stages.tooltests import worker
from envforge.stages.tooltests.worker import PREFIX, remove_leftovers, run_isolated
from tests.conftest import REPO

SHOWCASE = REPO / "generated" / "showcase" / "retail"
SLEEPER = """
import os, subprocess, sys
child = "from envforge.stages.tooltests.worker import die_with_parent; import time; die_with_parent({}); time.sleep(120)"
subprocess.run([sys.executable, "-c", child.format(os.getpid())])
"""
PARENT = f"""
from pathlib import Path
from envforge.executors import sharing_cores
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.stages.tooltests.worker import run_isolated
run_isolated(load_environment(open_package(Path({str(SHOWCASE)!r}))), seed=0)
"""


def children(pid: int) -> list[int]:
    found = []
    for status in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = status.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.append(int(status.parent.name))
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(condition: object, seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if callable(condition) and condition():
            return True
        time.sleep(0.05)
    return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_a_run_killed_with_sigkill_takes_its_worker_down_and_the_next_run_removes_its_scratch_folder() -> None:
    environment = {**os.environ, "PYTHONPATH": str(REPO)}
    parent = subprocess.Popen([sys.executable, "-c", PARENT], env=environment)
    try:
        assert wait_for(lambda: children(parent.pid), 60), "the worker never started"
        workers = children(parent.pid)
        scratch = list(Path(tempfile.gettempdir()).glob(f"{PREFIX}{parent.pid}-*"))
        assert len(scratch) == 1
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()

        assert wait_for(lambda: not any(map(alive, workers)), 10), "a worker outlived its parent"
        assert scratch[0].is_dir()
        assert scratch[0] in remove_leftovers(Path(tempfile.gettempdir()))
        assert not scratch[0].exists()
    finally:
        parent.kill()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process table from /proc")
def test_a_worker_outliving_its_task_still_dies_when_its_parent_is_killed() -> None:
    parent = subprocess.Popen([sys.executable, "-c", SLEEPER], env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        assert wait_for(lambda: children(parent.pid), 30), "the worker never started"
        (worker,) = children(parent.pid)
        os.kill(parent.pid, signal.SIGKILL)
        parent.wait()

        assert wait_for(lambda: not alive(worker), 5), "the worker outlived its parent"
    finally:
        parent.kill()


def test_scratch_folders_of_live_runs_and_of_other_programs_are_kept(tmp_path: Path) -> None:
    live = tmp_path / f"{PREFIX}{os.getpid()}-abc"
    other = tmp_path / "envforge-other-1-abc"
    dead = tmp_path / f"{PREFIX}{2**22 + 1}-abc"
    for folder in (live, other, dead):
        folder.mkdir()

    assert remove_leftovers(tmp_path) == [dead]
    assert live.is_dir() and other.is_dir() and not dead.exists()


def test_two_workers_sharing_the_tools_give_the_report_of_one(monkeypatch: pytest.MonkeyPatch) -> None:
    env = load_environment(open_package(SHOWCASE))
    reports = []
    for count in (1, 2):
        monkeypatch.setattr(worker, "worker_count", lambda count=count: count)
        reports.append(run_isolated(env, seed=0))
    assert reports[0] == reports[1]
    assert [result.tool for result in reports[1].results] == [tool.name for tool in env.toolgraph.tools]


@pytest.mark.parametrize(("cores", "load", "workers"), [(1, 0.0, 1), (2, 0.3, 2), (2, 1.7, 1), (16, 9.0, 2)])
def test_a_second_worker_starts_only_where_a_core_is_idle(
    monkeypatch: pytest.MonkeyPatch, cores: int, load: float, workers: int
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(cores)), raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (load, load, load))
    assert worker.worker_count() == workers


def test_the_tests_run_beside_the_stages_after_them_start_one_worker_on_an_idle_machine(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    with sharing_cores():
        assert worker.worker_count() == 1
    assert worker.worker_count() == 2

"""A batch killed with SIGKILL mid-run: nothing half-written is left visible, its workers die with it, and the
rerun resumes from the stage cache to the bytes of an uninterrupted batch.

Three small packages, generated about three times over in fresh interpreters: `slow`.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from envforge.exporters.run import find_packages
from envforge.files import read_files
from envforge.stages.registry import STAGES
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import check_package_integrity
from tests.cli.test_generate import without_timing
from tests.conftest import REPO, envforge_cli

DOMAINS = ["library", "clinic", "retail"]
COMMAND = ["batch", *DOMAINS, "--rows", "60", "--tasks", "4", "--workers", "2"]
DEADLINE_S = 120


def group_members(group: int) -> list[int]:
    """The processes of a process group, the leader excepted, from /proc."""
    members = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            # After the command's closing parenthesis: state, parent, process group.
            fields = stat.read_text().rpartition(")")[2].split()
            if int(fields[2]) == group and int(stat.parent.name) != group:
                members.append(int(stat.parent.name))
    return members


def visible(out: Path) -> list[str]:
    return sorted(entry.name for entry in out.iterdir() if not entry.name.startswith("."))


def kill_after_first_package(out: Path) -> list[int]:
    """Start the batch, SIGKILL it once a package folder appears; the pidfds of its workers, opened before."""
    batch = subprocess.Popen(
        [sys.executable, "-m", "envforge.cli.app", *COMMAND, "-o", str(out)],
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        for _ in range(DEADLINE_S * 20):
            with contextlib.suppress(subprocess.TimeoutExpired):
                batch.wait(timeout=0.05)
            assert batch.returncode is None, "the batch ended before a package could be waited for"
            if out.is_dir() and visible(out):
                break
        else:
            pytest.fail(f"no package in {out} after {DEADLINE_S} s")
        workers = []
        for pid in group_members(batch.pid):
            with contextlib.suppress(ProcessLookupError):
                workers.append(os.pidfd_open(pid))
    finally:
        batch.send_signal(signal.SIGKILL)
        batch.wait()
    return workers


def package_bytes(out: Path) -> dict[str, dict[str, bytes]]:
    return {domain: read_files(out / domain) for domain in DOMAINS}


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="workers die with the batch on Linux only")
def test_a_batch_killed_mid_run_resumes_from_the_cache_to_the_bytes_of_an_uninterrupted_one(tmp_path: Path) -> None:
    out = tmp_path / "killed"
    workers = kill_after_first_package(out)
    assert workers, "the pool's workers were running"
    try:
        for pidfd in workers:
            # A pidfd turns readable when its process ends: the workers die with the batch, not after their work.
            assert select.select([pidfd], [], [], 10)[0] == [pidfd]
    finally:
        for pidfd in workers:
            with contextlib.suppress(ProcessLookupError):
                signal.pidfd_send_signal(pidfd, signal.SIGKILL)  # a survivor, when this test fails
            os.close(pidfd)
    finished = visible(out)
    assert finished and len(finished) < len(DOMAINS), finished
    for domain in finished:
        assert check_package_integrity(open_for_check(out / domain)) == [], domain
    assert "suite.json" not in finished
    # What a reader of the suite folder takes for packages: never the temporary folder being filled at the kill.
    assert find_packages([out]) == [out / domain for domain in finished]

    rerun = envforge_cli(*COMMAND, "-o", str(out), "--json")
    assert rerun.returncode == 0, rerun.stderr
    report: dict[str, Any] = json.loads(rerun.stdout)
    timing = {row["package"]: row["timing"] for row in report["blueprints"]}
    for domain in finished:
        assert (timing[domain]["stages_cached"], timing[domain]["stages_built"]) == (len(STAGES), 0)
    assert sum(row["stages_cached"] for row in timing.values()) >= len(finished) * len(STAGES)
    assert [path for path in out.rglob(".*") if path.name.startswith((".tmp-", ".old-"))] == []

    fresh = tmp_path / "uninterrupted"
    uninterrupted = envforge_cli(*COMMAND, "-o", str(fresh), "--json")
    assert uninterrupted.returncode == 0, uninterrupted.stderr
    assert package_bytes(out) == package_bytes(fresh)
    assert without_timing(report) == without_timing(json.loads(uninterrupted.stdout))
    assert json.loads((out / "suite.json").read_text(encoding="utf-8")) == report

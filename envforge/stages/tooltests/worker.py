"""Runs the tool tests in fresh interpreters, so the report depends only on (environment, seed).

Hypothesis's generation inside a long-lived process shifted with what that process had imported and
done before (seen as different example counts for the same seed), which broke byte-identical builds.
A fresh interpreter with a fixed hash seed always starts from the same state.
"""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from envforge.errors import PipelineError
from envforge.ir.tooltests import ToolTestReport, ToolTestResult
from envforge.runtime.environment import Environment

TIMEOUT_S = 600
PREFIX = "envforge-tooltests-"
"""Scratch folders are named PREFIX<pid of the run>-<random>, so a later run can tell a killed run's apart."""
PR_SET_PDEATHSIG = 1


def remove_leftovers(folder: Path) -> list[Path]:
    """Remove the scratch folders of runs whose process is gone (killed with -9, so nothing cleaned up)."""
    removed = []
    for path in folder.glob(f"{PREFIX}*"):
        owner = path.name[len(PREFIX) :].split("-", 1)[0]
        if owner.isdigit() and not _alive(int(owner)) and path.is_dir():
            shutil.rmtree(path, ignore_errors=True)
            removed.append(path)
    return removed


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def die_with_parent(parent: int) -> None:
    """End this worker when the run that started it dies, even by SIGKILL, so no orphan keeps computing.

    Linux delivers SIGKILL on the parent's death (prctl PR_SET_PDEATHSIG); elsewhere a thread watches the
    parent id. The check after prctl covers a parent that died before the request was made."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:
                os._exit(1)
            return
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


def run_isolated(env: Environment, *, seed: int) -> ToolTestReport:
    """`run_tool_tests(env, seed=seed)`, computed in fresh interpreters, each testing its share of the tools."""
    remove_leftovers(Path(tempfile.gettempdir()))
    with tempfile.TemporaryDirectory(prefix=f"{PREFIX}{os.getpid()}-") as scratch:
        folder = Path(scratch)
        (folder / "blueprint.json").write_text(env.blueprint.model_dump_json(), encoding="utf-8")
        (folder / "toolgraph.json").write_text(env.toolgraph.model_dump_json(), encoding="utf-8")
        (folder / "state.sqlite").write_bytes(env.template)
        # A fixed, minimal environment: Hypothesis changes how it generates when it sees pytest's variables.
        variables = {"PATH": os.environ.get("PATH", ""), "PYTHONHASHSEED": "0", "HOME": scratch, "LC_ALL": "C.UTF-8"}
        # The worker imports the envforge this process runs, not whichever one the interpreter has installed
        # (a git worktree sharing another checkout's virtual environment).
        variables["PYTHONPATH"] = str(Path(__file__).resolve().parents[3])
        command = [sys.executable, "-m", "envforge.stages.tooltests.worker", str(folder), str(seed), str(os.getpid())]
        count = worker_count()
        workers = [
            subprocess.Popen(
                [*command, str(index), str(count)],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                env=variables,
                cwd=scratch,
            )
            for index in range(count)
        ]
        deadline = time.monotonic() + TIMEOUT_S
        try:
            shares = [_share(worker, deadline) for worker in workers]
        finally:
            for worker in workers:
                worker.kill()
                worker.wait()
    results = [shares[index % count][index // count] for index in range(sum(map(len, shares)))]
    return ToolTestReport(results=results)


def worker_count() -> int:
    """Two interpreters where a core is idle, else one. Any split of the tools gives the same report
    (`run_tool_tests`'s `share`); two halves side by side take about half the time, but each interpreter pays
    its start (about 0.5 s of imports), which is only time lost where the machine has no core to spare (or the
    run keeps it busy with the stages after this one: `executors.sharing_cores`)."""
    # Imported here, in the run that starts the workers: a worker imports exactly what it always did, since what
    # an interpreter has imported shifts Hypothesis's generation (see the module's docstring).
    from envforge.executors import spare_core

    return 2 if spare_core() else 1


def _share(worker: subprocess.Popen[str], deadline: float) -> list[ToolTestResult]:
    output, errors = worker.communicate(timeout=max(0.0, deadline - time.monotonic()))
    if worker.returncode != 0:
        raise PipelineError(f"the tool-test worker failed: {errors.strip().splitlines()[-1:]}")
    return ToolTestReport.model_validate_json(output).results


def main(folder: Path, seed: int, parent: int, share: tuple[int, int]) -> None:
    die_with_parent(parent)
    from envforge.ir.blueprint import Blueprint
    from envforge.ir.toolspec import ToolGraph
    from envforge.stages.tooltests.run import run_tool_tests

    blueprint = Blueprint.model_validate_json((folder / "blueprint.json").read_bytes())
    toolgraph = ToolGraph.model_validate_json((folder / "toolgraph.json").read_bytes())
    env = Environment(blueprint, toolgraph, (folder / "state.sqlite").read_bytes(), "")
    sys.stdout.write(json.dumps(run_tool_tests(env, seed=seed, share=share).model_dump(mode="json")))


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), (int(sys.argv[4]), int(sys.argv[5])))

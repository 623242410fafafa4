"""Tasks and verifiers of an environment package, loaded for replay and verification."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import ModuleType

from envforge.errors import PackageError, did_you_mean
from envforge.ir.tasks import RunHistory, TaskSpec, Transcript, Verdict


def load_tasks(package: Path) -> dict[str, TaskSpec]:
    path = package / "tasks.jsonl"
    if not path.is_file():
        raise PackageError(f"{path}: missing; regenerate the package with `envforge generate`")
    tasks = [
        TaskSpec.model_validate_json(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()
    ]
    return {task.id: task for task in tasks}


def find_task(package: Path, task_id: str) -> TaskSpec:
    return pick_task(package, load_tasks(package), task_id)


def pick_task(package: Path, tasks: dict[str, TaskSpec], task_id: str) -> TaskSpec:
    """The task `task_id` of a package's loaded tasks, or a one-line error with a near name."""
    if task_id not in tasks:
        hint = did_you_mean(task_id, tasks) or f"; the package has {len(tasks)} tasks, e.g. {next(iter(tasks), 'none')}"
        raise PackageError(f"{package}: no task '{task_id}'{hint}")
    return tasks[task_id]


VerifyFn = Callable[[RunHistory, Transcript | None], Verdict]
"""A verifier: `verify(history, transcript) -> Verdict`."""


def load_verifier(source: str, name: str) -> VerifyFn:
    """The `verify` function of a verifier's source (the gate runs exactly what the package ships)."""
    module = ModuleType(name)
    exec(compile(source, f"verifiers/{name}.py", "exec"), module.__dict__)
    function: VerifyFn = module.verify
    return function


def load_package_verifier(package: Path, task_id: str) -> ModuleType:
    """Import `verifiers/<task id>.py` from the package, as shipped."""
    path = package / "verifiers" / f"{task_id}.py"
    if not path.is_file():
        raise PackageError(f"{path}: missing; regenerate the package with `envforge generate`")
    module = ModuleType(f"envforge_verifier_{task_id.replace('-', '_')}")
    module.__file__ = str(path)
    exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), module.__dict__)
    return module


def verify_with_package(package: Path, task_id: str, history: RunHistory, transcript: Transcript) -> Verdict:
    verdict: Verdict = load_package_verifier(package, task_id).verify(history, transcript)
    return verdict

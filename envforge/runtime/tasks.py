"""Tasks and verifiers of an environment package, loaded for replay and verification."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from types import ModuleType

from pydantic import ValidationError

from envforge.errors import PackageError, did_you_mean
from envforge.ir.tasks import RunHistory, TaskSpec, Transcript, Verdict
from envforge.runtime.claims import Vocabulary
from envforge.runtime.opened_package import OpenedPackage, broken, first_error

TASKS_FILE = "tasks.jsonl"


def load_tasks(package: OpenedPackage) -> dict[str, TaskSpec]:
    """The tasks of `tasks.jsonl`; a line that is not a task is a one-line error naming the file and line."""
    tasks: dict[str, TaskSpec] = {}
    for number, line in enumerate(package.read_text(TASKS_FILE).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            task = TaskSpec.model_validate_json(line)
        except ValidationError as exc:
            where = package.path / TASKS_FILE
            raise broken(where, f"line {number}: not a task ({first_error(exc)})", package.path) from None
        tasks[task.id] = task
    return tasks


def check_verifiers_present(package: OpenedPackage, tasks: Iterable[str]) -> None:
    """Refuse a package missing a task's verifier when it loads, not when that task's episode ends."""
    for task_id in tasks:
        name = verifier_file(task_id)
        if not package.exists(name):
            raise broken(package.path / name, f"missing (the verifier of task {task_id})", package.path)


def verifier_file(task_id: str) -> str:
    return f"verifiers/{task_id}.py"


def pick_task(package: Path, tasks: dict[str, TaskSpec], task_id: str) -> TaskSpec:
    """The task `task_id` of a package's loaded tasks, or a one-line error with a near name."""
    if task_id not in tasks:
        hint = did_you_mean(task_id, tasks) or f"; the package has {len(tasks)} tasks, e.g. {next(iter(tasks), 'none')}"
        raise PackageError(f"{package}: no task '{task_id}'{hint}")
    return tasks[task_id]


VerifyFn = Callable[[RunHistory, Transcript | None, Vocabulary | None], Verdict]
"""A verifier: `verify(history, transcript, vocabulary) -> Verdict`."""


def load_verifier(source: str, name: str) -> VerifyFn:
    """The `verify` function of a verifier's source (the gate runs exactly what the package ships)."""
    module = ModuleType(name)
    exec(compile(source, f"verifiers/{name}.py", "exec"), module.__dict__)
    function: VerifyFn = module.verify
    return function


def load_package_verifier(package: OpenedPackage, task_id: str) -> ModuleType:
    """Import `verifiers/<task id>.py` from the package, as shipped (checked against its manifest hash)."""
    path = package.path / verifier_file(task_id)
    source = package.read_text(verifier_file(task_id))
    module = ModuleType(f"envforge_verifier_{task_id.replace('-', '_')}")
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec"), module.__dict__)
    return module

"""Reading a package's UI tasks (`apps/ui_tasks.jsonl`): one line per task and app, checked against its hash."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from envforge.errors import PackageError
from envforge.ir.uitasks import UI_TASKS_FILE, AppKind, UITask
from envforge.runtime.opened_package import OpenedPackage


def load_ui_tasks(package: OpenedPackage) -> list[UITask]:
    path = package.path / UI_TASKS_FILE
    if not package.exists(UI_TASKS_FILE):
        raise PackageError(f"{package.path}: no {UI_TASKS_FILE}; regenerate the package with `envforge generate`")
    tasks = []
    for number, line in enumerate(package.read_text(UI_TASKS_FILE).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            tasks.append(UITask.model_validate_json(line))
        except ValidationError as error:
            first = error.errors()[0]
            raise PackageError(f"{path}:{number}: not a UI task ({first['msg']})") from None
    return tasks


def pick_ui_task(package: Path, tasks: list[UITask], task_id: str, app: AppKind) -> UITask:
    """The task posed in `app`, or a one-line error saying whether the task exists in the other app."""
    for task in tasks:
        if task.task_id == task_id and task.app == app:
            return task
    other = [task.app for task in tasks if task.task_id == task_id]
    if other:
        raise PackageError(f"{package}: task '{task_id}' is posed in the {other[0]} app only; use --app {other[0]}")
    raise PackageError(
        f"{package}: task '{task_id}' has no UI task in the {app} app (see the report's dropped UI tasks); "
        f"the package poses {sum(t.app == app for t in tasks)} tasks there"
    )


def find_ui_task(package: OpenedPackage, task_id: str, app: AppKind) -> UITask:
    """The task posed in `app` among the package's UI tasks (see `pick_ui_task`)."""
    return pick_ui_task(package.path, load_ui_tasks(package), task_id, app)

"""Computer-use tasks: a task posed for a screen, and the golden UI path that does it in one app.

A golden path is a list of steps on elements named by their stable `data-testid`, built from the task's
oracle tool chain and proved by running it: against the app server over HTTP when the package is
generated, and in headless Chromium by `envforge verify-ui`.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from envforge.ir.base import IRModel

UI_TASKS_FILE = "apps/ui_tasks.jsonl"
UI_DROPPED_FILE = "apps/ui_dropped.json"

AppKind = Literal["web", "phone"]
UIAction = Literal["click", "fill", "select", "check", "uncheck", "read"]


class UIStep(IRModel):
    """One thing a person does on the page."""

    action: UIAction
    target: str
    """The element's `data-testid`."""
    value: str | None = None
    """What `fill` types or `select` picks: an option's value, or a picker's row by its label."""
    navigates: bool = False
    """The click loads another page (a link or a form submit), so a replay waits for it."""


class UITask(IRModel):
    """A task posed through one app: what the person is asked, and the golden path that does it."""

    schema_version: Literal[1] = 1
    task_id: str
    """The task in `tasks.jsonl` whose verifier judges the run."""
    app: AppKind
    instruction: str
    """Worded for someone at the screen, with every fact the path needs."""
    steps: list[UIStep]
    answers: bool = False
    """A question task: the text of the last (`read`) step is the answer given to the verifier."""


class UIDrop(IRModel):
    """A task that is not posed in an app, and why."""

    task_id: str
    app: AppKind
    reason: str
    """A short stable code, e.g. `record_unreachable`, `form_refused`, `verifier_failed`."""
    detail: str = ""


class UITaskSet(IRModel):
    """Every UI task of a package, and the tasks that could not be posed."""

    schema_version: Literal[1] = 1
    tasks: list[UITask] = Field(default_factory=list)
    dropped: list[UIDrop] = Field(default_factory=list)

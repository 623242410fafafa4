"""A task's request worded for someone at the app's screen rather than for a chat with an agent.

The words come from the task's scenario, not from parsing the chat: the request clauses the user would say,
turned from the first person into a request about them, with the row they would name only when asked and
the details they would give only when asked written in; the person is named by what the app finds them by.
So the instruction carries every fact the screen path needs.
"""

from __future__ import annotations

import re

from envforge.errors import EnvforgeError
from envforge.ir.tasks import TaskSpec
from envforge.text import humanize

_FIRST_PERSON = {r"\bmy\b": "their", r"\bme\b": "them", r"\bI\b": "they", r"\bmine\b": "theirs"}
_PAGING = ("limit", "offset")


class WordingError(EnvforgeError, ValueError):
    """The task carries too little to word it for a screen (no request clauses)."""


def third_person(text: str) -> str:
    for pattern, replacement in _FIRST_PERSON.items():
        text = re.sub(pattern, replacement, text)
    return text


def _request(task: TaskSpec, plurals: dict[str, str]) -> str:
    if not task.scenario.requests:
        raise WordingError(f"task {task.id}: no request clauses in its scenario; regenerate the package")
    clauses = list(task.scenario.requests)
    for entity, description in task.scenario.which.items():
        vague = f"one of my {plurals.get(entity, humanize(entity) + 's')}"
        clauses = [clause.replace(vague, description) for clause in clauses]
    details = [f"the {humanize(name.removeprefix('new_'))} is {value}" for name, value in task.scenario.details.items()]
    text = "; then ".join(clauses)
    if details:
        text += "; " + ", and ".join(details)
    return third_person(text)


def ui_instruction(task: TaskSpec, app_title: str, person_label: str, plurals: dict[str, str]) -> str:
    """`In the Retail app, for customer Greg Medina, whose email is g@x.org: cancel their order placed on March 3.`"""
    known = task.scenario.known
    name = " ".join(str(known[part]) for part in ("first_name", "last_name") if part in known)
    finder = {
        field: value
        for field, value in task.oracle[0].arguments.items()
        if field not in _PAGING and field not in ("first_name", "last_name")
    }
    facts = " and ".join(f"{humanize(field)} is {value}" for field, value in finder.items())
    who = f"{person_label} {name}".strip() + (f", whose {facts}" if facts else "")
    request = _request(task, plurals)
    if task.kind == "read":
        return (
            f"In the {app_title} app, look up {who}, and find out {request}. Answer with the value as the app shows it."
        )
    return f"In the {app_title} app, for {who}: {request}."

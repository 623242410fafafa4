"""A task's request worded for someone at the app's screen rather than for a chat with an agent.

The chat instruction is an opener (greeting, who the user is) and the request. The request is kept word
for word, only turned from the user's first person into a request about them; the person is named by
what the app can find them by, so the instruction carries every fact the screen path needs.
"""

from __future__ import annotations

import re
from typing import Any

from envforge.ir.tasks import TaskSpec
from envforge.text import humanize

_WRITE_OPENINGS = ("Please ", "Can you ", "I'd like you to ", "I want to ")
_QUESTION_OPENINGS = ("Could you tell me ", "I'd like to know ")
_FIRST_PERSON = {r"\bmy\b": "their", r"\bme\b": "them", r"\bI\b": "they"}


class WordingError(ValueError):
    """The chat instruction does not have the shape the task synthesizer writes."""


def _identity(task: TaskSpec) -> list[tuple[str, Any]]:
    """The facts the opener states, in the order they appear."""
    text = task.instruction
    facts = [
        (name, value)
        for name, value in task.scenario.known.items()
        if name not in ("first_name", "last_name") and f"my {humanize(name)} is {value}" in text
    ]
    return sorted(facts, key=lambda fact: text.index(f"my {humanize(fact[0])} is {fact[1]}"))


def request_of(task: TaskSpec) -> str:
    """The request after the opener, without its polite frame: `cancel my order (...)` or `what is ...`."""
    text = task.instruction
    facts = _identity(task)
    if facts:
        last = f"my {humanize(facts[-1][0])} is {facts[-1][1]}."
        end = text.index(last) + len(last)
    else:
        known = task.scenario.known
        who = f"This is {known.get('first_name', '')} {known.get('last_name', '')}."
        if who not in text:
            raise WordingError(f"task {task.id}: cannot find who is asking in {text!r}")
        end = text.index(who) + len(who)
    body = text[end:].strip()
    for opening in (*_WRITE_OPENINGS, *_QUESTION_OPENINGS):
        if body.startswith(opening):
            body = body.removeprefix(opening)
            break
    body = body.rstrip(".?").strip()
    if not body:
        raise WordingError(f"task {task.id}: no request after the opener in {text!r}")
    return body


def third_person(text: str) -> str:
    for pattern, replacement in _FIRST_PERSON.items():
        text = re.sub(pattern, replacement, text)
    return text


def ui_instruction(task: TaskSpec, app_title: str, person_label: str) -> str:
    """`In the Retail app, for customer Greg Medina (email: g@x.org): cancel their order (placed on: ...).`"""
    known = task.scenario.known
    name = " ".join(str(known[part]) for part in ("first_name", "last_name") if part in known)
    facts = ", ".join(f"{humanize(field)}: {value}" for field, value in _identity(task))
    who = f"{person_label} {name}".strip() + (f" ({facts})" if facts else "")
    request = third_person(request_of(task))
    # "Also, cancel my ..." joins requests in the chat; on a screen they are steps in order.
    request = request.replace(". Also, ", "; then ")
    if task.kind == "read":
        question = request[:1].lower() + request[1:]
        return (
            f"In the {app_title} app, look up {who} and find out {question}. Answer with the value as the app shows it."
        )
    return f"In the {app_title} app, for {who}: {request}."

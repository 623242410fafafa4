"""The facts a task's instruction states, and whether a rewording kept them all and added none.

A fact is a value the task is built on that the procedural instruction spells out: what the user says
about themselves (`scenario.known`), the values the oracle passes to tools (a new pharmacy, a reason, an
amount, a status to count), and the column values of the rows it touches (the date that singles out an
order, the product of an order item). Only values that actually occur in the procedural instruction count,
so the check asks of a paraphrase exactly what the original promised.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from envforge.ir.tasks import TaskSpec

Row = Mapping[str, Any]
DATA_TOKEN = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\b[A-Z]{2,5}-\d+|(?<![\w.])\d+(?:[.:/-]\d+)*")
"""Emails, record keys and numbers (dates, times and amounts included): what a rewording must not invent."""
MIN_FACT_LENGTH = 2
MIN_REPEATED_SENTENCE = 12
LONGER = 1.5
"""A rewording may be this much longer than the original (plus SLACK characters); beyond that it adds things
(a small model answers its own request, as the assistant)."""
SLACK = 40


@dataclass(frozen=True)
class RowIndex:
    """Every row of the initial state by its key, and the rows of each entity."""

    by_key: Mapping[str, Row]
    by_entity: Mapping[str, Sequence[Row]]


def forms(value: Any) -> list[str]:
    """How a value may be written in an instruction: as is, with underscores as spaces, money with two places."""
    if isinstance(value, bool) or value is None:
        return []
    shown = [f"{value:.2f}", f"{value:g}"] if isinstance(value, float) else [str(value)]
    if isinstance(value, str) and "_" in value:
        shown.append(value.replace("_", " "))
    return list(dict.fromkeys(text.strip() for text in shown if len(text.strip()) >= MIN_FACT_LENGTH))


def _normal(text: str) -> str:
    return " ".join(text.lower().split())


def mentions(text: str, fact: str) -> bool:
    """`fact` occurs in `text` as a whole (not inside a longer word or number), ignoring case and spacing."""
    pattern = r"(?<![\w.])" + re.escape(_normal(fact)) + r"(?![\w]|\.\d)"
    return re.search(pattern, _normal(text)) is not None


def _values(task: TaskSpec, rows: RowIndex) -> Iterable[Any]:
    for value in task.scenario.known.values():
        yield from value if isinstance(value, list) else [value]
    touched: list[Row] = []
    for call in task.oracle:
        for value in call.arguments.values():
            yield value
            row = rows.by_key.get(value) if isinstance(value, str) else None
            if row is not None:
                touched.append(row)
    for row in touched:
        yield from row.values()
        for value in row.values():
            parent = rows.by_key.get(value) if isinstance(value, str) else None
            if parent is not None:
                yield from parent.values()


def task_facts(task: TaskSpec, rows: RowIndex) -> list[list[str]]:
    """The facts the instruction states; each as the forms it may take, the form the instruction used first."""
    facts: list[list[str]] = []
    seen: set[str] = set()
    for value in _values(task, rows):
        shown = [form for form in forms(value) if mentions(task.instruction, form)]
        if shown and _normal(shown[0]) not in seen:
            seen.add(_normal(shown[0]))
            facts.append([*shown, *(form for form in forms(value) if form not in shown)])
    return facts


def check_rewording(original: str, rewording: str, facts: list[list[str]]) -> str | None:
    """Why `rewording` cannot replace `original`: a fact it dropped or changed, a value it invented, or a
    sentence it says twice (a request said twice may be carried out twice), or much more than the original."""
    if len(rewording) > LONGER * len(original) + SLACK:
        return f"is {len(rewording)} characters long where the original has {len(original)}"
    seen: set[str] = set()
    for sentence in re.split(r"(?<=[.!?])\s+", rewording):
        said = _normal(sentence)
        if len(said) >= MIN_REPEATED_SENTENCE and said in seen:
            return f"says '{sentence.strip()}' twice"
        seen.add(said)
    for fact in facts:
        if not any(mentions(rewording, form) for form in fact):
            return f"dropped or changed '{fact[0]}'"
    for token in DATA_TOKEN.findall(rewording):
        if _normal(token) not in _normal(original):
            return f"added '{token}', which the original does not say"
    return None

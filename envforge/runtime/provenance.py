"""Where each argument of an oracle comes from: what the user says, what they reveal when asked, what an
earlier call returned, or what a policy the agent reads offers. A demonstration that uses a value from nowhere
teaches an agent to guess."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from typing import Any

from envforge.ir.tasks import TaskSpec
from envforge.ir.toolspec import scalars
from envforge.text import stated_in

MECHANICS = frozenset({"limit", "offset"})
"""Arguments about paging, not about the request: any value is the agent's own choice."""


def _key(value: Any) -> str:
    """Values equal as an agent would copy them: `3` and `3.0` alike, text as is."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int | float):
        return f"{float(value):.6f}"
    return str(value).lower().replace("_", " ")


def _user_values(task: TaskSpec) -> set[str]:
    scenario = task.scenario
    parts = (scenario.known, scenario.hidden, scenario.details, scenario.said)
    return {_key(value) for part in parts for value in scalars(part)}


def provenance_violations(
    task: TaskSpec, results: list[dict[str, Any]], clock: date, rules: Sequence[str] = ()
) -> list[str]:
    """One line per oracle argument no source gives. `results` are the oracle's results, in order; `rules` the
    texts of the policies the agent reads (a cap's amount comes from there)."""
    told = _user_values(task)
    texts = [*task.told(), *rules]
    seen: set[str] = set()
    problems = []
    for index, call in enumerate(task.oracle):
        for name, value in call.arguments.items():
            if name in MECHANICS or _sourced(value, texts, told, seen, clock):
                continue
            problems.append(
                f"{task.id}: call {index + 1} ({call.name}) uses {name}={value!r}, which the user never gives, no"
                " earlier call returns and no policy states"
            )
        if index < len(results):
            seen |= {_key(item) for item in scalars(results[index])}
    return problems


def _sourced(value: Any, texts: list[str], told: set[str], seen: set[str], clock: date) -> bool:
    if isinstance(value, dict | list):
        return all(_sourced(item, texts, told, seen, clock) for item in scalars(value))
    key = _key(value)
    return key in seen or key in told or any(stated_in(text, value, clock) for text in texts)

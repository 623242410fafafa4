"""The exchange in which an agent asks for what the user held back, for trainers that have no user to ask.

A task may hold back the user's email, a detail of the request, or which row they mean, so that an agent
learns to ask. A single-turn trainer (TRL, verl) or an SFT demonstration has nobody to answer, so its
prompt carries the question and the user's answer, and the rest of the episode is the agent's to solve.
"""

from __future__ import annotations

from typing import Any

from envforge.ir.tasks import Reaction, TaskSpec
from envforge.ir.toolspec import scalars

_LABELS = {"phone": "phone number", "record_ids": "reference", "zip": "zip code"}
UNITS = ("kg", "lb", "km", "cm", "mm", "usd", "eur")
"""Units a field name may end in (`weight_kg`): the value is said with the unit, the name without it."""


def field_label(field: str) -> str:
    """`date_of_birth` -> `date of birth`; `phone` -> `phone number`."""
    return _LABELS.get(field, field.replace("_", " ").strip())


def values(value: Any) -> list[str]:
    """A scenario value as the strings that could appear in a message."""
    if isinstance(value, list | tuple | set):
        return [text for item in value for text in values(item)]
    return [] if value is None or value == "" else [str(value)]


def _join(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def split_unit(name: str) -> tuple[str, str]:
    """`new_weight_kg` -> (`weight`, `kg`): the detail's name and the unit its value is in."""
    stem, _, unit = name.removeprefix("new_").rpartition("_")
    return (stem, unit) if unit in UNITS else (name.removeprefix("new_"), "")


def detail_label(name: str, *, owner: str) -> str:
    """How a held-back request detail is named: `the reason`, `your new email` (`my new email`)."""
    label = field_label(split_unit(name)[0])
    return f"{owner} new {label}" if name.startswith("new_") else f"the {label}"


def detail_fact(name: str, value: Any) -> str:
    """The user's answer for one request detail: `the weight is 10 kg`, `my new email is ...`."""
    unit = split_unit(name)[1]
    return f"{detail_label(name, owner='my')} is {', '.join(values(value))}{f' {unit}' if unit else ''}"


def needed_hidden(task: TaskSpec) -> list[str]:
    """The held-back identity fields whose values the oracle passes to a tool: what the agent must ask for."""
    used = {str(value) for call in task.oracle for value in scalars(call.arguments)}
    return [field for field, value in task.scenario.hidden.items() if set(values(value)) & used]


def clarification(task: TaskSpec, later: Reaction | None = None, *, everything: bool = False) -> list[dict[str, str]]:
    """The agent's question for what the user held back that the task needs, and the user's answer; empty when
    the request says all the agent needs. Without `later`, what the first message holds back (with `everything`,
    also what the follow-ups do, for a trainer with no user to ask later); with it, what that follow-up does."""
    scenario = task.scenario
    follow_ups = [reaction for reaction in scenario.script if reaction.when == "done"]
    if later is not None:
        hidden: list[str] = []
        details = {name: scenario.details[name] for name in later.details}
        which = {entity: scenario.which[entity] for entity in later.which}
    else:
        kept = set() if everything else {name for reaction in follow_ups for name in reaction.details}
        vague = set() if everything else {entity for reaction in follow_ups for entity in reaction.which}
        hidden = needed_hidden(task)
        details = {name: value for name, value in scenario.details.items() if name not in kept}
        which = {entity: text for entity, text in scenario.which.items() if entity not in vague}
    asks: list[str] = []
    facts: list[str] = []
    for field in hidden:
        asks.append(f"your {field_label(field)}")
        facts.append(f"my {field_label(field)} is {', '.join(values(scenario.hidden[field]))}")
    for name, value in details.items():
        asks.append(detail_label(name, owner="your"))
        facts.append(detail_fact(name, value))
    for entity, description in which.items():
        asks.append(f"which {field_label(entity)} you mean")
        facts.append(f"I mean {description}")
    if not asks:
        return []
    return [
        {"role": "assistant", "content": f"I can help with that. Could you tell me {_join(asks)}?"},
        {"role": "user", "content": f"Sure: {_join(facts)}."},
    ]

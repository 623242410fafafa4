"""The information barrier: a separate call that sees only what the agent will see writes its own check.

After CUA-Gym, where a discriminator that may not read the generator's scripts writes the reward. Here
the checker is shown the instruction, the tools (names, descriptions, arguments) and the tables (columns,
types, enum values), never the oracle or the verifier. It declares what a correct run must change (table,
column, new value) or, for a question, which column the answer comes from. Its check must agree with the
generated verifier the way CUA-Gym's reward must: true of the golden run, false of the untouched state.
Every declared change must be among the verifier's expected changes (so the check holds on the golden
diff, and, declaring at least one change, fails on no change); a declared question must be a read task
whose expected answer is a value that column takes. A task where they disagree is dropped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, assert_never

from envforge.ir.blueprint import (
    Blueprint,
    DecrementEffect,
    DeleteEffect,
    FieldSpec,
    IncrementEffect,
    InsertEffect,
    UpdateEffect,
)
from envforge.ir.tasks import TaskSpec
from envforge.ir.toolspec import ToolSpec
from envforge.llm import LLMClient
from envforge.synthesis.calls import JsonMode, ask_json
from envforge.synthesis.facts import RowIndex
from envforge.synthesis.prompts import Message, user
from envforge.synthesis.schemas import JSONSchema, array, obj, text

MAX_TOKENS = 200
MAX_CHANGES = 3
CHECKED_TYPES = frozenset({"string", "text", "integer", "number", "money", "boolean", "date", "datetime", "enum"})
NUMERIC = frozenset({"integer", "number", "money"})
SYSTEM = (
    "You check tasks of a customer-service assistant without seeing how they are solved. Read what the user "
    "asks. If they ask for a change, say which columns a correct run must set and to which values. If they "
    "ask a question, say which column the answer comes from."
)
EXAMPLE_TABLES = "order: placed_on (date), total (money), status (enum: pending/shipped/cancelled)"
EXAMPLE_TOOLS = "cancel_order(order_id): Cancel an order that has not shipped yet."
EXAMPLE_WRITABLE = "order.status"
EXAMPLE_REQUEST = "Hi, this is Ana Diaz, ana@example.com. Please cancel my order (placed on: 2026-02-22)."
EXAMPLE_CLAIM = {"changes": [{"target": "order.status", "value": "cancelled"}]}
EXAMPLE_QUESTION = "Hi, this is Ana Diaz. What is the total of my order (placed on: 2026-02-22)?"
EXAMPLE_ANSWER = {"question_about": "order.total"}


@dataclass(frozen=True)
class BarrierVerdict:
    agreed: bool
    claim: dict[str, Any] | None
    """What the checker declared; None when its answer was unusable."""
    reason: str = ""
    """Why the check and the verifier disagree."""


def _columns(blueprint: Blueprint) -> list[tuple[str, FieldSpec]]:
    return [
        (entity.name, item) for entity in blueprint.entities for item in entity.fields if item.type in CHECKED_TYPES
    ]


def writable_columns(blueprint: Blueprint) -> list[tuple[str, FieldSpec]]:
    """Columns some action can change: a run can change nothing else, so a check declares nothing else.

    Read from the environment's declared effects, which every task shares; nothing of a task's oracle."""
    written: set[tuple[str, str]] = set()
    for action in blueprint.actions:
        aliases = {binding.name: binding.entity for binding in action.bind}
        for effect in action.effects:
            match effect:
                case UpdateEffect():
                    written |= {(aliases.get(effect.update, ""), name) for name in effect.set}
                case IncrementEffect(increment=target) | DecrementEffect(decrement=target):
                    alias, _, name = target.partition(".")
                    written.add((aliases.get(alias, ""), name))
                case InsertEffect():
                    aliases[effect.alias] = effect.insert
                    written |= {(effect.insert, item.name) for item in blueprint.entity(effect.insert).fields}
                case DeleteEffect():
                    pass  # a deleted row has no new value in any column for a check to declare
                case _:
                    assert_never(effect)
    return [(entity, item) for entity, item in _columns(blueprint) if (entity, item.name) in written]


def _value_schema(item: FieldSpec) -> JSONSchema:
    if item.type == "enum":
        return {"type": "string", "enum": list(item.values or [])}
    if item.type == "boolean":
        return {"type": "boolean"}
    if item.type in NUMERIC:
        return {"type": "number"}
    return text(120)


def barrier_schema(blueprint: Blueprint) -> JSONSchema:
    """A list of changes (each a writable column and a value of its type), or the column a question is about."""
    writable = writable_columns(blueprint)
    targets = [f"{entity}.{item.name}" for entity, item in _columns(blueprint)]
    counts = [f"count:{entity.name}" for entity in blueprint.entities]
    question = obj({"question_about": {"type": "string", "enum": [*targets, *counts]}})
    if not writable:
        return question
    change = {
        "anyOf": [
            obj({"target": {"const": f"{entity}.{item.name}"}, "value": _value_schema(item)})
            for entity, item in writable
        ]
    }
    return {"anyOf": [obj({"changes": array(change, 1, MAX_CHANGES)}), question]}


def render_tables(blueprint: Blueprint) -> str:
    lines = []
    for entity in blueprint.entities:
        columns = []
        for item in entity.fields:
            if item.type in CHECKED_TYPES:
                values = f": {'/'.join(item.values or [])}" if item.type == "enum" else ""
                columns.append(f"{item.name} ({item.type}{values})")
        lines.append(f"{entity.name}: {', '.join(columns) or 'no columns'}")
    return "\n".join(lines)


def render_writable(blueprint: Blueprint) -> str:
    return ", ".join(f"{entity}.{item.name}" for entity, item in writable_columns(blueprint)) or "none"


def render_tools(tools: list[ToolSpec]) -> str:
    return "\n".join(
        f"{tool.name}({', '.join(tool.parameters.get('properties', {}))}): {tool.description}"
        for tool in tools
        if tool.kind == "write"
    )


@dataclass(frozen=True)
class Schemas:
    """What the checker is shown of the environment, rendered once."""

    tables: str
    tools: str
    writable: str
    claim: JSONSchema

    @classmethod
    def of(cls, blueprint: Blueprint, tools: list[ToolSpec]) -> Schemas:
        return cls(render_tables(blueprint), render_tools(tools), render_writable(blueprint), barrier_schema(blueprint))


def barrier_messages(task: TaskSpec, schemas: Schemas) -> list[Message]:
    """Only the instruction and the environment's schemas: the oracle and the verifier stay on the other side."""
    ask = "Tables:\n{}\nTools that change data:\n{}\nColumns they can change: {}\nThe user says: {}"
    example = (EXAMPLE_TABLES, EXAMPLE_TOOLS, EXAMPLE_WRITABLE)
    return [
        {"role": "system", "content": SYSTEM},
        user(ask.format(*example, EXAMPLE_REQUEST)),
        {"role": "assistant", "content": json.dumps(EXAMPLE_CLAIM)},
        user(ask.format(*example, EXAMPLE_QUESTION)),
        {"role": "assistant", "content": json.dumps(EXAMPLE_ANSWER)},
        user(ask.format(schemas.tables, schemas.tools or "none", schemas.writable, said(task))),
    ]


def said(task: TaskSpec) -> str:
    """The instruction, and what the user tells when the agent asks (which row they mean, held-back details):
    the user's whole side of the conversation, still nothing of the oracle or the verifier."""
    later = [f"I mean {text}" for text in task.scenario.which.values()]
    later += [f"the {name.replace('_', ' ')} is {value}" for name, value in task.scenario.details.items()]
    return task.instruction + (f" (When asked: {'; '.join(later)}.)" if later else "")


def _normal(value: Any) -> str:
    return " ".join(str(value).replace("_", " ").lower().split())


def same_value(expected: Any, declared: Any) -> bool:
    """Numbers compare numerically (to the cent; booleans as 0 and 1, as SQLite stores them), text ignoring
    case and underscores."""
    expected, declared = (float(value) if isinstance(value, bool) else value for value in (expected, declared))
    try:
        return abs(float(expected) - float(declared)) < 0.005
    except (TypeError, ValueError):
        return _normal(expected) == _normal(declared)


def compare(claim: dict[str, Any], task: TaskSpec, rows: RowIndex) -> str | None:
    """Why the declared check disagrees with the task's verifier, or None when it agrees."""
    expected = task.verifier.expected_changes
    touched = sorted({f"{change.entity}.{name}" for change in expected for name in (change.after or {})})
    if "changes" in claim:
        if not expected:
            return f"the check declares changes ({_claimed(claim)}); the verifier expects an answer and no change"
        for change in claim["changes"]:
            entity, _, column = str(change["target"]).partition(".")
            found = [c.after[column] for c in expected if c.entity == entity and c.after and column in c.after]
            if not found:
                return f"the check declares a change of {change['target']}; the verifier changes {', '.join(touched)}"
            if not any(same_value(value, change["value"]) for value in found):
                return (
                    f"the check declares {change['target']} = {change['value']!r}; "
                    f"the verifier expects {', '.join(repr(value) for value in found)}"
                )
        return None
    target = str(claim["question_about"])
    if expected:
        return f"the check declares a question about {target}; the verifier expects changes to {', '.join(touched)}"
    if task.verifier.answer is None:
        return f"the check declares a question about {target}; the verifier expects no answer"
    answer = task.verifier.answer.value
    if target.startswith("count:"):
        return None if answer.strip().isdigit() else f"the check declares a count; the verifier expects {answer!r}"
    entity, _, column = target.partition(".")
    if any(same_value(row.get(column), answer) for row in rows.by_entity.get(entity, [])):
        return None
    return f"the check declares the answer comes from {target}; no {entity} has {column} {answer!r}"


def _claimed(claim: dict[str, Any]) -> str:
    return ", ".join(f"{change['target']} = {change['value']!r}" for change in claim["changes"])


async def check_task(
    client: LLMClient, task: TaskSpec, schemas: Schemas, rows: RowIndex, mode: JsonMode
) -> BarrierVerdict:
    answer = await ask_json(
        client, barrier_messages(task, schemas), schemas.claim, name="barrier", mode=mode, max_tokens=MAX_TOKENS
    )
    if answer.failure is not None:
        return BarrierVerdict(False, None, f"the check could not be read: {answer.failure}")
    claim: dict[str, Any] = answer.value
    reason = compare(claim, task, rows)
    return BarrierVerdict(reason is None, claim, reason or "")

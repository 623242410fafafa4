"""Find concrete calls for any environment by searching its seeded state: a READ that succeeds,
a WRITE that succeeds, and a call refused as a policy violation."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from typing import Any

from envforge.ir.toolspec import JsonValue, ToolResult, ToolSpec
from envforge.runtime.environment import Environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.session import Session

Call = tuple[str, dict[str, Any]]
CANDIDATES_PER_REF = 25
ATTEMPTS_PER_TOOL = 400


@dataclass(frozen=True)
class Probes:
    read: Call
    write: Call
    policy_violation: Call


def _values(session: Session, tool: ToolSpec, name: str, schema: dict[str, Any], rng: random.Random) -> list[Any]:
    entity = tool.param_refs.get(name)
    if entity is not None:
        keys = [row[session.env.entities[entity].key] for row in session.rows(entity)]
        rng.shuffle(keys)
        return keys[:CANDIDATES_PER_REF]
    if "enum" in schema:
        return list(schema["enum"])
    kind = schema.get("type")
    if kind in ("integer", "number"):
        low, high = schema.get("minimum", 1), schema.get("maximum", 1000)
        middle = (low + high) / 2
        picks = [low, 1, 2, 5, 10, 20, 49, 50, 51, 99, 100, 500, middle, high]
        return [int(v) if kind == "integer" else float(v) for v in picks if low <= v <= high]
    if kind == "boolean":
        return [True, False]
    if schema.get("format") == "date":
        return [session.env.blueprint.clock.date().isoformat()]
    if schema.get("format") == "date-time":
        return [session.env.blueprint.clock.isoformat()]
    return ["probe@example.com", "Example value", "12345"]


def attempts(session: Session, tool: ToolSpec, rng: random.Random) -> list[dict[str, Any]]:
    properties = tool.parameters.get("properties", {})
    required = tool.parameters.get("required", [])
    options = [_values(session, tool, name, properties[name], rng) for name in required]
    combos = list(itertools.islice(itertools.product(*options), 20_000))
    rng.shuffle(combos)
    return [dict(zip(required, combo, strict=True)) for combo in combos[:ATTEMPTS_PER_TOOL]]


def find_probes(env: Environment, seed: int = 0) -> Probes:
    """Search the seeded state for the three calls; raises AssertionError if one cannot be found."""
    rng = random.Random(seed)
    session = Session(env)
    person = env.blueprint.person
    read = next(tool for tool in env.toolgraph.tools if tool.operation == "list" and tool.entity == person)
    write: Call | None = None
    violation: Call | None = None
    for tool in env.toolgraph.tools:
        if tool.kind != "write" or (write and violation):
            continue
        for arguments in attempts(session, tool, rng):
            ok, result = session.call_tool(tool.name, arguments)
            session.reset()
            if ok and write is None:
                write = (tool.name, arguments)
            elif not ok and refusal_of(result)["code"] == "policy_violation" and violation is None:
                violation = (tool.name, arguments)
            if (write and violation) or (ok and violation):
                break
    assert write is not None, f"{env.env_id}: no WRITE call succeeds on the seeded state"
    assert violation is not None, f"{env.env_id}: no call triggers a policy violation"
    return Probes(read=(read.name, {"limit": 2}), write=write, policy_violation=violation)


def fields(value: JsonValue) -> dict[str, Any]:
    """A JSON object of a tool's result (the result, a row it returns), its fields read as a test reads them."""
    assert isinstance(value, dict), value
    return value


def rows(result: ToolResult) -> list[dict[str, Any]]:
    """The rows of a list tool's page."""
    items = result["items"]
    assert isinstance(items, list), result
    return [fields(item) for item in items]


def first(session: Session, tool: str, **filters: Any) -> dict[str, Any]:
    """The first row a list tool returns for `filters`; the seeded state must have one."""
    items = rows(session.call(tool, {**filters, "limit": 1}))
    assert items, f"the seeded state has no row for {tool} {filters}"
    return items[0]


def details(session: Session, entity: str, row: dict[str, Any]) -> dict[str, Any]:
    """The whole row behind a list tool's summary `row` of `entity`, as its get tool shows it."""
    key = session.env.entities[entity].key
    return fields(session.call(f"get_{entity}", {key: row[key]}))

"""The READ and WRITE calls `envforge bench` repeats, chosen from the package's own rows."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from envforge.errors import PackageError
from envforge.ir.toolspec import ToolSpec
from envforge.runtime.environment import Environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.session import Session

CANDIDATE_ROWS = 20
"""Rows tried per tool when looking for arguments that a tool accepts."""
READ_OPERATIONS = ("get", "find", "list")
REFUSALS_BY_PREFERENCE = ("constraint_violation", "policy_violation", "precondition_failed", "not_found")


@dataclass(frozen=True)
class Probe:
    """A tool call the benchmark repeats, and the SQL it ran (bound values inlined) for the baseline."""

    tool: str
    arguments: dict[str, Any]
    outcome: str
    """`ok`, or the error code of a refused call, from the initial state."""
    changes: bool = False
    """Whether a successful call changed the state's content (a no-op update does not)."""
    statements: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"


def sample_value(schema: dict[str, Any]) -> Any:
    """A plausible value for a JSON Schema: the first enum member, a small in-range number, a string."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind in ("integer", "number"):
        value = min(max(5, schema.get("minimum", 5)), schema.get("maximum", 5))
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return True
    text = "bench@example.com"
    return text[: schema.get("maxLength", len(text))]


def _first_rows(session: Session, entity: str, limit: int) -> list[dict[str, Any]]:
    runtime = session.env.entities[entity]
    table = runtime.statements.table.name.replace('"', '""')
    key = runtime.key.replace('"', '""')
    cursor = session.connection.execute(f'SELECT * FROM "{table}" ORDER BY "{key}" LIMIT ?', (limit,))
    return [dict(row) for row in cursor]


def candidate_arguments(session: Session, tool: ToolSpec, limit: int = CANDIDATE_ROWS) -> Iterator[dict[str, Any]]:
    """Arguments built from the package's own rows: keys for references, row values for the tool's fields."""
    if tool.operation == "list":
        yield {}
        return
    properties: dict[str, Any] = tool.parameters.get("properties", {})
    required = list(tool.parameters.get("required", []))
    referenced = {name: _first_rows(session, entity, limit) for name, entity in tool.param_refs.items()}
    own = _first_rows(session, tool.entity, limit)
    for index in range(max(1, limit)):
        arguments: dict[str, Any] = {}
        for name in required:
            arguments[name] = _argument(session, tool, name, properties.get(name, {}), index, referenced, own)
        yield arguments


def _argument(
    session: Session,
    tool: ToolSpec,
    name: str,
    schema: dict[str, Any],
    index: int,
    referenced: dict[str, list[dict[str, Any]]],
    own: list[dict[str, Any]],
) -> Any:
    rows = referenced.get(name)
    if rows:
        return rows[index % len(rows)][session.env.entities[tool.param_refs[name]].key]
    if own and own[index % len(own)].get(name) is not None:
        return own[index % len(own)][name]
    return sample_value(schema)


def try_tool(env: Environment, tool: ToolSpec) -> Probe | None:
    """A candidate call of `tool` that succeeds (for a WRITE, one that changes the state if any does),
    else its most telling refusal, else None."""
    session = Session(env)
    initial = session.state_hash() if tool.kind == "write" else ""
    try:
        unchanged: Probe | None = None
        refusal: Probe | None = None
        for arguments in candidate_arguments(session, tool):
            ok, result = session.call_tool(tool.name, arguments)
            if ok:
                changes = tool.kind == "write" and session.state_hash() != initial
                probe = Probe(tool.name, arguments, "ok", changes)
                session.reset()
                if changes or tool.kind == "read":
                    return probe
                unchanged = unchanged or probe
                continue
            code = refusal_of(result)["code"]
            if code in REFUSALS_BY_PREFERENCE and (refusal is None or _preference(code) < _preference(refusal.outcome)):
                refusal = Probe(tool.name, arguments, code)
        return unchanged or refusal
    finally:
        session.close()


def _preference(code: str) -> int:
    return REFUSALS_BY_PREFERENCE.index(code)


def find_read_probe(env: Environment) -> Probe:
    """A READ call that succeeds: a get by key if one works, else a find, else a listing."""
    reads = [tool for tool in env.toolgraph.tools if tool.kind == "read"]
    for operation in READ_OPERATIONS:
        for tool in reads:
            if tool.operation == operation:
                probe = try_tool(env, tool)
                if probe is not None and probe.ok:
                    return probe
    raise PackageError(f"{env.env_id}: no READ tool answered a call built from the package's rows")


def find_write_probe(env: Environment) -> Probe | None:
    """The best WRITE call in tool order: one that succeeds and changes the state, else one that succeeds.

    Whether a call could be repeated does not count: the benchmark times every WRITE from the initial state.

    None when the environment has no WRITE tool, or none answered more than argument errors.
    """
    best: Probe | None = None
    for tool in env.toolgraph.tools:
        if tool.kind != "write":
            continue
        probe = try_tool(env, tool)
        if probe is not None and (best is None or _write_rank(probe) < _write_rank(best)):
            best = probe
            if _write_rank(best) == (0, 0):
                break
    return best


def _write_rank(probe: Probe) -> tuple[int, int]:
    return (0 if probe.ok else 1, 0 if probe.changes else 1)


def capture_statements(env: Environment, probe: Probe) -> Probe:
    """The probe with the SQL one call runs from the initial state, as the baseline replays it."""
    session = Session(env)
    # The baseline replays on the package's state.sqlite, which has no write history to log into.
    session.drop_history()
    statements: list[str] = []
    try:
        session.connection.set_trace_callback(statements.append)
        session.call_tool(probe.tool, probe.arguments)
    finally:
        session.connection.set_trace_callback(None)
        session.close()
    return replace(probe, statements=tuple(statements))

"""The perturbations of a task's golden calls that the call red team (`tests/runtime/test_call_red_team.py`) draws:
calls added, dropped, moved, repeated, refused, changed, respelled or undone, their arguments drawn from the rows
of the state (the user's, other people's, catalogs')."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from hypothesis import strategies as st

from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.ir.toolspec import ToolSpec
from tests.runtime.call_world import Row, World

WHOSE = ("own", "other", "any")
PAGING = ("limit", "offset")


def _tools(world: World, kind: str) -> list[ToolSpec]:
    return [tool for tool in world.env.toolgraph.tools if tool.kind == kind]


def _typed(value: Any, schema: dict[str, Any]) -> Any:
    """A stored value as the argument's JSON type asks (SQLite keeps booleans as 0 and 1)."""
    if schema.get("type") == "boolean" and value in (0, 1):
        return bool(value)
    return value


def _row(draw: st.DrawFn, world: World, task: TaskSpec, entity: str) -> Row | None:
    rows = world.pool(task, entity, draw(st.sampled_from(WHOSE))) or world.rows[entity]
    return draw(st.sampled_from(rows)) if rows else None


def _key(draw: st.DrawFn, world: World, task: TaskSpec, entity: str) -> str:
    row = _row(draw, world, task, entity)
    return "NONE-000000" if row is None else str(row[world.keys[entity]])


def _column_values(world: World, name: str) -> list[Any]:
    return [row[name] for rows in world.rows.values() for row in rows[:50] if row.get(name) is not None]


def _value(draw: st.DrawFn, world: World, schema: dict[str, Any], name: str, row: Row | None) -> Any:
    """A value for a plain argument: an allowed one, the same-named cell of a row, or one drawn by its type."""
    if "enum" in schema:
        return draw(st.sampled_from(schema["enum"]))
    cells = [row[name]] if row is not None and row.get(name) is not None else _column_values(world, name)
    if draw(st.booleans()) and cells:
        return _typed(draw(st.sampled_from(cells)), schema)
    low, high = schema.get("minimum", 0), schema.get("maximum", 500)
    kind = schema.get("type")
    if kind == "integer":
        return draw(st.integers(int(low), int(high)))
    if kind == "number":
        return draw(st.integers(int(low * 100), int(high * 100)).map(lambda cents: round(cents / 100, 2)))
    if kind == "boolean":
        return draw(st.booleans())
    return draw(st.sampled_from(["Other", "n/a", "a@b.co", "555-0100", "2026-03-20", "Main St 1"]))


def draw_call(draw: st.DrawFn, world: World, task: TaskSpec, tool: ToolSpec) -> ToolCall:
    """A call of `tool` with arguments drawn from the state's rows: the user's, other people's, or a catalog's."""
    properties: dict[str, dict[str, Any]] = tool.parameters["properties"]
    required = set(tool.parameters.get("required", []))
    row = _row(draw, world, task, tool.entity)
    arguments: dict[str, Any] = {}
    if tool.operation in ("get", "find", "list") and row is not None:
        names = tool.filters if tool.operation != "list" else draw(st.lists(st.sampled_from(tool.filters), max_size=2))
        arguments = {name: _typed(row[name], properties[name]) for name in names if row.get(name) is not None}
        if tool.operation == "list" and draw(st.booleans()):
            arguments["limit"] = draw(st.sampled_from([1, 5, 100]))
        return ToolCall(name=tool.name, arguments=arguments)
    for name, schema in sorted(properties.items()):
        if name not in required and not draw(st.booleans()):
            continue
        if name in tool.param_refs:
            arguments[name] = _key(draw, world, task, tool.param_refs[name])
        else:
            arguments[name] = _value(draw, world, schema, name, row)
    return ToolCall(name=tool.name, arguments=arguments)


def _insert(draw: st.DrawFn, calls: list[ToolCall], *inserted: ToolCall) -> list[ToolCall]:
    at = draw(st.integers(0, len(calls)))
    return [*calls[:at], *inserted, *calls[at:]]


def _writes(world: World, calls: list[ToolCall]) -> list[int]:
    return [index for index, call in enumerate(calls) if world.env.tools[call.name].kind == "write"]


def _with(call: ToolCall, **arguments: Any) -> ToolCall:
    return ToolCall(name=call.name, arguments={**call.arguments, **arguments})


Perturbation = Callable[[st.DrawFn, World, TaskSpec, list[ToolCall]], tuple[str, list[ToolCall]]]


def extra_read(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    """Any read, anywhere, of anyone's rows."""
    tool = draw(st.sampled_from(_tools(world, "read")))
    return "extra_read", _insert(draw, calls, draw_call(draw, world, task, tool))


def extra_write(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    """Any write, anywhere, on the user's other rows, other people's, a catalog's, with drawn values."""
    tool = draw(st.sampled_from(_tools(world, "write")))
    return "extra_write", _insert(draw, calls, draw_call(draw, world, task, tool))


def dropped(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    if not calls:
        return "dropped", calls
    at = draw(st.integers(0, len(calls) - 1))
    return "dropped", [*calls[:at], *calls[at + 1 :]]


def reordered(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    if not calls:
        return "reordered", calls
    at = draw(st.integers(0, len(calls) - 1))
    rest = [*calls[:at], *calls[at + 1 :]]
    return "reordered", _insert(draw, rest, calls[at])


def duplicated(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    if not calls:
        return "duplicated", calls
    return "duplicated", _insert(draw, calls, calls[draw(st.integers(0, len(calls) - 1))])


def _malformed(draw: st.DrawFn, world: World, call: ToolCall) -> ToolCall:
    """The call with arguments its schema refuses: a required one left out, an unknown one, a value of the wrong
    type or outside its enum."""
    properties: dict[str, dict[str, Any]] = world.env.tools[call.name].parameters["properties"]
    required = [name for name in world.env.tools[call.name].parameters.get("required", []) if name in call.arguments]
    enums = [name for name in call.arguments if "enum" in properties.get(name, {})]
    how = draw(st.sampled_from([how for how, able in (("missing", required), ("enum", enums)) if able] + ["unknown"]))
    if how == "missing":
        gone = draw(st.sampled_from(required))
        return ToolCall(name=call.name, arguments={k: v for k, v in call.arguments.items() if k != gone})
    if how == "enum":
        return _with(call, **{draw(st.sampled_from(enums)): "not_a_choice"})
    return _with(call, note="please")


def refused(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    """A call the runtime refuses, anywhere: malformed, a write on another person's row, a write repeated at once
    (its precondition no longer holds)."""
    writes = _writes(world, calls)
    foreign = [
        (index, name)
        for index in writes
        for name, entity in sorted(world.env.tools[calls[index].name].param_refs.items())
        if entity in world.chains and world.pool(task, entity, "other")
    ]
    ways = ["malformed", *(["foreign"] if foreign else []), *(["repeated"] if writes else [])]
    way = draw(st.sampled_from(ways))
    if way == "foreign":
        index, name = draw(st.sampled_from(foreign))
        entity = world.env.tools[calls[index].name].param_refs[name]
        theirs = draw(st.sampled_from(world.pool(task, entity, "other")))[world.keys[entity]]
        return "refused:foreign", _insert(draw, calls, _with(calls[index], **{name: str(theirs)}))
    if way == "repeated":
        index = draw(st.sampled_from(writes))
        return "refused:repeated", [*calls[: index + 1], calls[index], *calls[index + 1 :]]
    source = draw(st.sampled_from(calls)) if draw(st.booleans()) and calls else None
    if source is None:
        source = draw_call(draw, world, task, draw(st.sampled_from(_tools(world, "write"))))
    return "refused:malformed", _insert(draw, calls, _malformed(draw, world, source))


def changed_read(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    """A golden read with its arguments changed, in its place: a filter set to another row's value, a filter dropped,
    or a listing cut to one row or started past the first."""
    reads = [index for index, call in enumerate(calls) if world.env.tools[call.name].kind == "read"]
    if not reads:
        return extra_read(draw, world, task, calls)
    index = draw(st.sampled_from(reads))
    call, tool = calls[index], world.env.tools[calls[index].name]
    filters = sorted(name for name in call.arguments if name in tool.filters)
    how = draw(st.sampled_from(["refiltered", *(["unfiltered", "paged"] if tool.operation == "list" else [])]))
    if how == "paged":
        changed = _with(call, **{draw(st.sampled_from(PAGING)): 1})
    elif how == "unfiltered" and filters:
        gone = draw(st.sampled_from(filters))
        changed = ToolCall(name=call.name, arguments={k: v for k, v in call.arguments.items() if k != gone})
    else:
        row = _row(draw, world, task, tool.entity)
        name = draw(st.sampled_from(tool.filters))
        properties: dict[str, dict[str, Any]] = tool.parameters["properties"]
        value = _value(draw, world, properties[name], name, row)
        changed = _with(
            call, **{name: _key(draw, world, task, tool.param_refs[name]) if name in tool.param_refs else value}
        )
    return f"changed_read:{how}", [*calls[:index], changed, *calls[index + 1 :]]


def _changed(draw: st.DrawFn, world: World, task: TaskSpec, call: ToolCall) -> ToolCall:
    """The call with one argument changed: another row (the user's, someone else's, a catalog's) or another value."""
    tool = world.env.tools[call.name]
    properties: dict[str, dict[str, Any]] = tool.parameters["properties"]
    names = sorted(name for name in call.arguments if name in properties)
    if not names:
        return call
    name = draw(st.sampled_from(names))
    schema = properties[name]
    if name in tool.param_refs:
        return _with(call, **{name: _key(draw, world, task, tool.param_refs[name])})
    return _with(call, **{name: _value(draw, world, schema, name, None)})


def changed(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    """A golden write with one argument changed, in its place."""
    writes = [index for index in _writes(world, calls) if calls[index].arguments]
    if not writes:
        return extra_write(draw, world, task, calls)
    index = draw(st.sampled_from(writes))
    return "changed", [*calls[:index], _changed(draw, world, task, calls[index]), *calls[index + 1 :]]


CASES: dict[str, Callable[[str], str]] = {
    "upper": str.upper,
    "lower": str.lower,
    "swapcase": str.swapcase,
    "title": str.title,
}


def respelled(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    """A golden write with a text argument written in another case, in its place."""
    texts = [
        (index, name)
        for index in _writes(world, calls)
        for name, value in sorted(calls[index].arguments.items())
        if isinstance(value, str) and any(char.isalpha() for char in value)
    ]
    if not texts:
        return changed(draw, world, task, calls)
    index, name = draw(st.sampled_from(texts))
    case = CASES[draw(st.sampled_from(sorted(CASES)))]
    call = calls[index]
    return "respelled", [*calls[:index], _with(call, **{name: case(call.arguments[name])}), *calls[index + 1 :]]


def _compensation(world: World, task: TaskSpec, call: ToolCall) -> ToolCall | None:
    """A write that undoes `call`: the same action setting back the cells it names from the row's start, or another
    action on the same row that takes just that row (freeze, then unfreeze)."""
    tool = world.env.tools[call.name]
    refs = {name: entity for name, entity in tool.param_refs.items() if entity == tool.entity}
    if not refs:
        return None
    name, entity = sorted(refs.items())[0]
    row = next((row for row in world.rows[entity] if row[world.keys[entity]] == call.arguments.get(name)), None)
    restored = {arg: row[arg] for arg in call.arguments if row is not None and arg != name and arg in row}
    if restored:
        return _with(call, **restored)
    for other in _tools(world, "write"):
        if other.name != call.name and other.entity == tool.entity and other.param_refs == {name: entity}:
            required = other.parameters.get("required", [])
            if set(required) <= {name}:
                return ToolCall(name=other.name, arguments={name: call.arguments[name]})
    return None


def compensated(draw: st.DrawFn, world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[str, list[ToolCall]]:
    """A write followed by one that undoes it: a golden write first made wrong then made right, or an extra write
    and its undoing."""
    writes = [index for index in _writes(world, calls) if calls[index].arguments]
    if draw(st.booleans()) and writes:
        index = draw(st.sampled_from(writes))
        wrong = _changed(draw, world, task, calls[index])
        return "compensated:fixed", [*calls[:index], wrong, *calls[index:]]
    tool = draw(st.sampled_from(_tools(world, "write")))
    call = draw_call(draw, world, task, tool)
    undo = _compensation(world, task, call)
    if undo is None:
        return "compensated:repeated", _insert(draw, calls, call, call)
    return "compensated:undone", _insert(draw, calls, call, undo)


PERTURBATIONS: tuple[Perturbation, ...] = (
    extra_read,
    extra_write,
    dropped,
    reordered,
    duplicated,
    refused,
    changed,
    changed_read,
    respelled,
    compensated,
)


@dataclass(frozen=True)
class Perturbed:
    """A task's golden calls, perturbed: the calls to play and what was done to them."""

    task: TaskSpec
    calls: list[ToolCall]
    classes: tuple[str, ...]


@st.composite
def perturbed_runs(draw: st.DrawFn, world: World, which: Callable[[TaskSpec], bool], most: int = 3) -> Perturbed:
    """A task of the world's that `which` takes, its golden calls perturbed one to `most` times."""
    task = draw(st.sampled_from([task for task in world.tasks if which(task)]))
    calls, classes = list(task.oracle), []
    for _ in range(draw(st.integers(1, most))):
        perturbation = draw(st.sampled_from(PERTURBATIONS))
        name, calls = perturbation(draw, world, task, calls)
        classes.append(name)
    return Perturbed(task, calls, tuple(classes))

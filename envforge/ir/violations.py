"""Evaluate seed invariants over rows, and count the rows that break each one.

Shared by the state stage (which makes rows satisfy the invariants), the tool-test stage and the
conformance checks (which prove the shipped state does). Works on plain rows, so it reads a SQLite
state as easily as rows still being seeded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, assert_never

from envforge.ir.blueprint import Blueprint
from envforge.ir.expressions import CompiledExpression, ExpressionError, compile_expression
from envforge.ir.invariant_rows import Row, World, total_relations
from envforge.ir.invariants import (
    ChildCount,
    ConditionalValue,
    DerivedValue,
    InvariantSpec,
    StateRule,
    TemporalOrder,
    Total,
)
from envforge.ir.tables import key_field

MONEY_TOLERANCE = 0.005
"""Derived amounts are equal when they differ by less than half a cent (floating-point sums)."""


@dataclass(frozen=True)
class InvariantCount:
    """How many rows break one invariant, and the key of the first."""

    id: str
    text: str
    entity: str
    violations: int
    example: str | None
    """Key of the first violating row, e.g. `ORD-104233`; None when there is none."""


def same_value(left: Any, right: Any) -> bool:
    """Equal, with numbers compared to within half a cent."""
    numbers = (int, float)
    if isinstance(left, numbers) and isinstance(right, numbers) and not isinstance(left, bool):
        return abs(left - right) < MONEY_TOLERANCE
    return bool(left == right)


def date_order(left: Any, right: Any) -> int:
    """-1, 0 or 1 as ISO date or datetime `left` is before, on or after `right`; a date compares by day."""
    first, second = str(left), str(right)
    if len(first) == 10 or len(second) == 10:
        first, second = first[:10], second[:10]
    return (first > second) - (first < second)


def aggregate(kind: str, values: list[Any], empty: Any) -> Any:
    """`sum`, `count`, `min` or `max` of `values`, or `empty` (0 for sum and count) when there are none."""
    if kind == "count":
        return len(values)
    if not values:
        return empty if empty is not None else (0 if kind == "sum" else None)
    if kind == "sum":
        total = sum(values)
        return round(total, 2) if isinstance(total, float) else total
    return min(values) if kind == "min" else max(values)


@dataclass(frozen=True)
class CompiledTotal:
    """A named total of a derived value, its expressions compiled once."""

    name: str
    total: Total
    of: CompiledExpression | None
    where: CompiledExpression | None


@dataclass(frozen=True)
class Compiled:
    """An invariant's expressions, compiled once."""

    invariant: InvariantSpec
    main: CompiledExpression | None
    of: CompiledExpression | None = None
    where: CompiledExpression | None = None
    not_before: tuple[CompiledExpression, ...] = ()
    not_after: tuple[CompiledExpression, ...] = ()
    totals: tuple[CompiledTotal, ...] = ()


def _compiled(source: str | None) -> CompiledExpression | None:
    return None if source is None else compile_expression(source)


def _compiled_totals(totals: dict[str, Total]) -> tuple[CompiledTotal, ...]:
    return tuple(
        CompiledTotal(name, total, _compiled(total.of), _compiled(total.where)) for name, total in totals.items()
    )


def compile_invariant(invariant: InvariantSpec) -> Compiled:
    match invariant:
        case DerivedValue():
            return Compiled(
                invariant,
                _compiled(invariant.value),
                _compiled(invariant.of),
                _compiled(invariant.where),
                totals=_compiled_totals(invariant.totals),
            )
        case ChildCount():
            return Compiled(invariant, _compiled(invariant.when), where=_compiled(invariant.where))
        case ConditionalValue():
            return Compiled(invariant, compile_expression(invariant.when))
        case TemporalOrder():
            return Compiled(
                invariant,
                None,
                not_before=tuple(compile_expression(source) for source in invariant.not_before),
                not_after=tuple(compile_expression(source) for source in invariant.not_after),
            )
        case StateRule():
            return Compiled(
                invariant,
                compile_expression(invariant.require),
                totals=_compiled_totals(invariant.totals),
            )
        case _:
            assert_never(invariant)


def _descend(world: World, relations: list[str], row: Row, scope: dict[str, Any]) -> Iterator[dict[str, Any]]:
    """A scope per row reached down `relations` from `row`, each row along the way under its entity name."""
    relation = world.relations[relations[0]]
    for child in world.children(relation.name, row[world.keys[relation.parent]]):
        child_scope = {**scope, relation.child: child}
        if len(relations) == 1:
            yield child_scope
        else:
            yield from _descend(world, relations[1:], child, child_scope)


def _children_counted(
    world: World, relations: list[str], row: Row | None, scope: dict[str, Any], where: CompiledExpression | None
) -> list[dict[str, Any]]:
    """The scopes of the rows reached down `relations` from `row` for which `where` holds."""
    if row is None:
        return []
    return [found for found in _descend(world, relations, row, scope) if where is None or where(found)]


def total_value(compiled: CompiledTotal, world: World, scope: dict[str, Any]) -> Any:
    """A derived value's named total, for the row whose scope is `scope`."""
    alias = compiled.total.over.split(".")[0]
    rows = _children_counted(world, total_relations(compiled.total), scope[alias], scope, compiled.where)
    values = [compiled.of(found) if compiled.of is not None else found for found in rows]
    return aggregate(compiled.total.aggregate, values, compiled.total.empty)


def full_scope(compiled: Compiled, world: World, row: Row) -> dict[str, Any]:
    """The names an invariant's main expression reads for `row`: its rows, the clock and its totals."""
    scope = world.scope(compiled.invariant, row)
    for total in compiled.totals:
        scope[total.name] = total_value(total, world, scope)
    return scope


def derived_value(compiled: Compiled, world: World, row: Row) -> Any:
    """What a derived field should hold on `row`."""
    invariant = compiled.invariant
    if not isinstance(invariant, DerivedValue):
        raise TypeError(invariant.id)
    scope = full_scope(compiled, world, row)
    if compiled.main is not None:
        return compiled.main(scope)
    if invariant.over is None or invariant.aggregate is None:
        raise TypeError(invariant.id)
    counted = _children_counted(world, [invariant.over], row, scope, compiled.where)
    values = [compiled.of(found) if compiled.of is not None else found for found in counted]
    return aggregate(invariant.aggregate, values, invariant.empty)


def children_needed(compiled: Compiled, world: World, row: Row) -> int:
    """How many children a child count asks of `row`: its `at_least`, or none where its `when` does not hold."""
    invariant = compiled.invariant
    if not isinstance(invariant, ChildCount):
        raise TypeError(invariant.id)
    if compiled.main is None:
        return invariant.at_least
    try:
        needed = bool(compiled.main(world.scope(invariant, row)))
    except ExpressionError:
        # A row its condition cannot be read on is held to the count, so a state that cannot say why is flagged.
        needed = True
    return invariant.at_least if needed else 0


def child_count(compiled: Compiled, world: World, row: Row) -> int:
    """How many children of `row` a child count counts."""
    invariant = compiled.invariant
    if not isinstance(invariant, ChildCount):
        raise TypeError(invariant.id)
    return len(_children_counted(world, [invariant.over], row, world.scope(invariant, row), compiled.where))


def _bound(bound: CompiledExpression, scope: Mapping[str, Any]) -> Any:
    # A bound built from an empty date (add_days of nothing) is empty too, and empty bounds are ignored.
    try:
        return bound(scope)
    except ExpressionError:
        return None


def date_bounds(compiled: Compiled, scope: Mapping[str, Any]) -> tuple[Any, Any]:
    """The latest `not_before` and earliest `not_after` date on a row; None where a side has none."""
    low: Any = None
    high: Any = None
    for bound in compiled.not_before:
        value = _bound(bound, scope)
        if value is not None and (low is None or date_order(value, low) > 0):
            low = value
    for bound in compiled.not_after:
        value = _bound(bound, scope)
        if value is not None and (high is None or date_order(value, high) < 0):
            high = value
    return low, high


def holds(compiled: Compiled, world: World, row: Row) -> bool:
    """Whether `row` satisfies the invariant (a rule's `distinct` is judged over all rows, by `violating_rows`).

    A row on which the invariant cannot be evaluated (a sum over an empty amount) does not satisfy it.
    """
    try:
        return _holds(compiled, world, row)
    except ExpressionError:
        return False


def _holds(compiled: Compiled, world: World, row: Row) -> bool:
    invariant = compiled.invariant
    match invariant:
        case DerivedValue():
            return same_value(row.get(invariant.derive), derived_value(compiled, world, row))
        case ConditionalValue():
            condition = compiled.main
            present = bool(condition(world.scope(invariant, row))) if condition is not None else False
            return (row.get(invariant.present) is not None) == present
        case TemporalOrder():
            value = row.get(invariant.date)
            if value is None:
                return True
            low, high = date_bounds(compiled, world.scope(invariant, row))
            return (low is None or date_order(value, low) >= 0) and (high is None or date_order(value, high) <= 0)
        case StateRule():
            rule = compiled.main
            return rule is not None and bool(rule(full_scope(compiled, world, row)))
        case ChildCount():
            return child_count(compiled, world, row) >= children_needed(compiled, world, row)
        case _:
            assert_never(invariant)


def violating_rows(compiled: Compiled, world: World) -> Iterable[Row]:
    """The rows of the invariant's entity that break it, in table order."""
    invariant = compiled.invariant
    seen: set[Any] = set()
    distinct = isinstance(invariant, StateRule) and invariant.distinct
    for row in world.tables.get(invariant.entity, ()):
        repeated = False
        if distinct and isinstance(invariant, StateRule):
            value = row.get(invariant.seed_by)
            repeated = value is not None and value in seen
            seen.add(value)
        if repeated or not holds(compiled, world, row):
            yield row


def count_violations(blueprint: Blueprint, tables: Mapping[str, list[Row]]) -> list[InvariantCount]:
    """One count per declared invariant, in declaration order."""
    world = World(blueprint, tables)
    counts = []
    for invariant in blueprint.invariants:
        rows = list(violating_rows(compile_invariant(invariant), world))
        example = str(rows[0][world.keys[invariant.entity]]) if rows else None
        counts.append(InvariantCount(invariant.id, invariant.text, invariant.entity, len(rows), example))
    return counts


def read_tables(connection: sqlite3.Connection, blueprint: Blueprint) -> dict[str, list[Row]]:
    """Every row of every entity's table, in key order."""
    tables: dict[str, list[Row]] = {}
    for entity in blueprint.entities:
        key = key_field(entity).name
        cursor = connection.execute(f'SELECT * FROM "{entity.name}" ORDER BY "{key}"')
        names = [column[0] for column in cursor.description]
        tables[entity.name] = [dict(zip(names, values, strict=True)) for values in cursor]
    return tables


def count_state_violations(blueprint: Blueprint, database: bytes) -> list[InvariantCount]:
    """`count_violations` over a serialized SQLite state."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(database)
        return count_violations(blueprint, read_tables(connection, blueprint))
    finally:
        connection.close()


def describe_violations(counts: Iterable[InvariantCount]) -> list[str]:
    """One line per violated invariant: id, count, example row key and the rule's text."""
    return [
        f"{count.id}: {count.violations} {count.entity} {'row breaks' if count.violations == 1 else 'rows break'} it "
        f"(e.g. {count.example}): {count.text}"
        for count in counts
        if count.violations
    ]

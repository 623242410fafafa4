"""Evaluate seed invariants over rows, and count the rows that break each one.

Shared by the state stage (which makes rows satisfy the invariants), the tool-test stage and the
conformance checks (which prove the shipped state does). Works on plain rows, so it reads a SQLite
state as easily as rows still being seeded.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, assert_never

from envforge.ir.blueprint import Blueprint
from envforge.ir.expressions import CompiledExpression, ExpressionError, compile_expression
from envforge.ir.invariants import ConditionalValue, DerivedValue, InvariantSpec, StateRule, TemporalOrder
from envforge.ir.tables import key_field

Row = dict[str, Any]
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


def alias_entities(blueprint: Blueprint, invariant: InvariantSpec) -> dict[str, str]:
    """Alias -> entity of every row an invariant's expressions see (for a checked blueprint)."""
    parent_of = {(r.child, r.field): r.parent for r in blueprint.relations}
    children = {r.name: r.child for r in blueprint.relations}
    entities = {invariant.entity: invariant.entity}
    for alias, path in invariant.parents.items():
        root, _, ref = path.rpartition(".")
        entities[alias] = parent_of[(entities[root or invariant.entity], ref)]
    if isinstance(invariant, DerivedValue):
        for alias, relation in invariant.children.items():
            entities[alias] = children[relation]
        if invariant.over is not None:
            entities[children[invariant.over]] = children[invariant.over]
    return entities


class World:
    """Rows per entity, with the lookups invariants need: rows by key, children by parent."""

    def __init__(self, blueprint: Blueprint, tables: Mapping[str, list[Row]]) -> None:
        self.blueprint = blueprint
        self.tables = tables
        self.keys = {entity.name: key_field(entity).name for entity in blueprint.entities}
        self.relations = {relation.name: relation for relation in blueprint.relations}
        self.clock = {"today": blueprint.clock.date().isoformat(), "now": blueprint.clock.isoformat()}
        self._by_key: dict[str, dict[Any, Row]] = {}
        self._children: dict[str, dict[Any, list[Row]]] = {}
        self._plans: dict[str, list[tuple[str, str, str, str]]] = {}

    def row(self, entity: str, key: Any) -> Row | None:
        index = self._by_key.get(entity)
        if index is None or len(index) != len(self.tables.get(entity, ())):
            key_name = self.keys[entity]
            index = {row[key_name]: row for row in self.tables.get(entity, ())}
            self._by_key[entity] = index
        return index.get(key)

    def children(self, relation_name: str, parent_key: Any) -> list[Row]:
        index = self._children.get(relation_name)
        if index is None:
            relation = self.relations[relation_name]
            index = {}
            for child in self.tables.get(relation.child, ()):
                index.setdefault(child[relation.field], []).append(child)
            self._children[relation_name] = index
        return index.get(parent_key, [])

    def forget_children(self) -> None:
        """Drop the child indexes (after ref fields changed)."""
        self._children.clear()

    def _plan(self, invariant: InvariantSpec) -> list[tuple[str, str, str, str]]:
        """(alias, holder alias, ref field, parent entity) for each of the invariant's parents, in order."""
        plan = self._plans.get(invariant.id)
        if plan is None:
            entities = alias_entities(self.blueprint, invariant)
            plan = []
            for alias, path in invariant.parents.items():
                root, _, ref = path.rpartition(".")
                plan.append((alias, root or invariant.entity, ref, entities[alias]))
            self._plans[invariant.id] = plan
        return plan

    def scope(self, invariant: InvariantSpec, row: Row) -> dict[str, Any]:
        """The names an invariant's expressions read for `row`."""
        scope: dict[str, Any] = {**self.clock, invariant.entity: row}
        for alias, root, ref, parent_entity in self._plan(invariant):
            holder = scope[root]
            scope[alias] = None if holder is None else self.row(parent_entity, holder.get(ref))
        if isinstance(invariant, DerivedValue):
            key = row[self.keys[invariant.entity]]
            for alias, relation in invariant.children.items():
                found = self.children(relation, key)
                scope[alias] = found[0] if found else None
        return scope


@dataclass(frozen=True)
class Compiled:
    """An invariant's expressions, compiled once."""

    invariant: InvariantSpec
    main: CompiledExpression | None
    of: CompiledExpression | None = None
    where: CompiledExpression | None = None
    not_before: tuple[CompiledExpression, ...] = ()
    not_after: tuple[CompiledExpression, ...] = ()


def compile_invariant(invariant: InvariantSpec) -> Compiled:
    match invariant:
        case DerivedValue():
            return Compiled(
                invariant,
                None if invariant.value is None else compile_expression(invariant.value),
                None if invariant.of is None else compile_expression(invariant.of),
                None if invariant.where is None else compile_expression(invariant.where),
            )
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
            return Compiled(invariant, compile_expression(invariant.require))
        case _:
            assert_never(invariant)


def derived_value(compiled: Compiled, world: World, row: Row) -> Any:
    """What a derived field should hold on `row`."""
    invariant = compiled.invariant
    if not isinstance(invariant, DerivedValue):
        raise TypeError(invariant.id)
    scope = world.scope(invariant, row)
    if compiled.main is not None:
        return compiled.main(scope)
    if invariant.over is None or invariant.aggregate is None:
        raise TypeError(invariant.id)
    child_entity = world.relations[invariant.over].child
    values = []
    for child in world.children(invariant.over, row[world.keys[invariant.entity]]):
        child_scope = {**scope, child_entity: child}
        if compiled.where is None or compiled.where(child_scope):
            values.append(compiled.of(child_scope) if compiled.of is not None else child)
    return aggregate(invariant.aggregate, values, invariant.empty)


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
            return rule is not None and bool(rule(world.scope(invariant, row)))
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

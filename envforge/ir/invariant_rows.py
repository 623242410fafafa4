"""The rows a seed invariant sees: its own row, the parents it names, the clock, and children by parent.

`World` indexes rows per entity, whether they are still being seeded or read back from a SQLite state.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envforge.ir.blueprint import Blueprint
from envforge.ir.invariants import ChildCount, DerivedValue, InvariantSpec, StateRule, Total

Row = dict[str, Any]


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
    if isinstance(invariant, DerivedValue | StateRule):
        for total in invariant.totals.values():
            for relation in total_relations(total):
                entities[children[relation]] = children[relation]
    if isinstance(invariant, ChildCount):
        entities[children[invariant.over]] = children[invariant.over]
    return entities


def total_relations(total: Total) -> list[str]:
    """The relations a total follows down from its row, in order."""
    return total.over.split(".")[1:]


class World:
    """Rows per entity, with the lookups invariants need: rows by key, children by parent."""

    def __init__(self, blueprint: Blueprint, tables: Mapping[str, list[Row]]) -> None:
        # Here, not at the top: the blueprint checks import this module, and envforge.ir.tables imports SQLAlchemy.
        from envforge.ir.tables import key_field

        self.blueprint = blueprint
        self.tables = tables
        self.keys = {entity.name: key_field(entity).name for entity in blueprint.entities}
        self.relations = {relation.name: relation for relation in blueprint.relations}
        self.clock = {"today": blueprint.clock.date().isoformat(), "now": blueprint.clock.isoformat()}
        self._by_key: dict[str, dict[Any, Row]] = {}
        self._children: dict[str, tuple[dict[Any, list[Row]], int]] = {}
        self._plans: dict[str, list[tuple[str, str, str, str]]] = {}

    def row(self, entity: str, key: Any) -> Row | None:
        index = self._by_key.get(entity)
        if index is None or len(index) != len(self.tables.get(entity, ())):
            key_name = self.keys[entity]
            index = {row[key_name]: row for row in self.tables.get(entity, ())}
            self._by_key[entity] = index
        return index.get(key)

    def children(self, relation_name: str, parent_key: Any) -> list[Row]:
        relation = self.relations[relation_name]
        rows = self.tables.get(relation.child, ())
        index, size = self._children.get(relation_name, (None, 0))
        # Rebuilt once the child table has grown: seeding asks for children while later tables are still made.
        if index is None or size != len(rows):
            index = {}
            for child in rows:
                index.setdefault(child[relation.field], []).append(child)
            self._children[relation_name] = (index, len(rows))
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

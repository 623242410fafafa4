"""Whose a row is: one compiled query per owned entity, following its foreign keys up to the person."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from sqlalchemy import FromClause, Select, bindparam, select
from sqlalchemy.dialects import sqlite

from envforge.ir.ownership import owner_paths
from envforge.runtime.environment import Environment

_DIALECT = sqlite.dialect(paramstyle="named")
NOBODY = object()
"""The owner of a row that does not exist."""


@dataclass(frozen=True)
class OwnerQuery:
    """The person key a row of one entity belongs to, from the row's key (`:key`)."""

    entity: str
    sql: str | None
    """None for the person entity, whose rows are the people themselves."""

    def owner(self, connection: sqlite3.Connection, key: Any) -> object:
        """The person key; None when the chain breaks on an empty foreign key; NOBODY for a missing row."""
        if self.sql is None:
            return key
        row = connection.execute(self.sql, {"key": key}).fetchone()
        return NOBODY if row is None else row[0]


def compile_owner_queries(env: Environment) -> dict[str, OwnerQuery]:
    """One query per entity whose rows belong to a person; shared by the environment's sessions."""
    compiled: dict[str, OwnerQuery] | None = env.compiled.get("owners")
    if compiled is None:
        compiled = {}
        for entity, path in owner_paths(env.blueprint).items():
            compiled[entity] = OwnerQuery(entity, _sql(env, entity, [(r.field, r.parent) for r in path]))
        env.compiled["owners"] = compiled
    return compiled


def _sql(env: Environment, entity: str, path: list[tuple[str, str]]) -> str | None:
    """Join from the row up the path's foreign keys (each onto its parent's key); the last one holds the person key.
    Outer joins, so an empty foreign key on the way gives an empty owner rather than no row."""
    if not path:
        return None
    child = env.entities[entity].statements.table
    start = child
    joined: FromClause = child
    for field, parent in path[:-1]:
        runtime = env.entities[parent]
        table = runtime.statements.table
        joined = joined.join(table, child.c[field] == table.c[runtime.key], isouter=True)
        child = table
    last_field = path[-1][0]
    query: Select[tuple[object]] = (
        select(child.c[last_field]).select_from(joined).where(start.c[env.entities[entity].key] == bindparam("key"))
    )
    return str(query.compile(dialect=_DIALECT))

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
    """The person key a row of one entity belongs to, from the row's key (`:key`), and the first rows (by key) of
    a given owner or of anyone but a given person: each an indexed query that stops at its first row."""

    entity: str
    sql: str
    """For the person entity, whose rows are the people themselves, the row's own key where the row exists."""
    sibling_sql: str | None = None
    """The first row of `:owner` other than `:key`; None for the person entity (each person owns only itself)."""
    others_sql: str = ""
    """The first row whose owner is someone other than `:person`."""
    owned_sql: str = ""
    """The whole rows `:owner` owns, in key order, at most `:limit` of them."""

    def owner(self, connection: sqlite3.Connection, key: Any) -> object:
        """The person key; None when the chain breaks on an empty foreign key; NOBODY for a missing row (a person's
        too: a key of no one is not another person's)."""
        row = connection.execute(self.sql, {"key": key}).fetchone()
        return NOBODY if row is None else row[0]

    def sibling(self, connection: sqlite3.Connection, key: Any, owner: str) -> Any:
        """The first key (in key order) of another row `owner` owns, or None."""
        if self.sibling_sql is None:
            return None
        row = connection.execute(self.sibling_sql, {"key": key, "owner": owner}).fetchone()
        return None if row is None else row[0]

    def of_others(self, connection: sqlite3.Connection, person: str | None) -> Any:
        """The first key (in key order) of a row owned by a person other than `person`, or None."""
        row = connection.execute(self.others_sql, {"person": person}).fetchone()
        return None if row is None else row[0]

    def owned(self, connection: sqlite3.Connection, owner: str, limit: int) -> list[dict[str, Any]]:
        """Up to `limit` rows `owner` owns, in key order."""
        return [dict(row) for row in connection.execute(self.owned_sql, {"owner": owner, "limit": limit})]


def compile_owner_queries(env: Environment) -> dict[str, OwnerQuery]:
    """One query per entity whose rows belong to a person; shared by the environment's sessions."""
    compiled: dict[str, OwnerQuery] | None = env.compiled.get("owners")
    if compiled is None:
        compiled = {}
        for entity, path in owner_paths(env.blueprint).items():
            steps = [(r.field, r.parent) for r in path]
            sibling, others = _first_rows_sql(env, entity, steps)
            compiled[entity] = OwnerQuery(
                entity, _sql(env, entity, steps), sibling, others, _owned_sql(env, entity, steps)
            )
        env.compiled["owners"] = compiled
    return compiled


def _joined(env: Environment, entity: str, path: list[tuple[str, str]], *, outer: bool) -> tuple[FromClause, Any]:
    """The row's table joined up the path's foreign keys (but the last) and the column that holds the person key."""
    child = env.entities[entity].statements.table
    joined: FromClause = child
    for field, parent in path[:-1]:
        runtime = env.entities[parent]
        table = runtime.statements.table
        joined = joined.join(table, child.c[field] == table.c[runtime.key], isouter=outer)
        child = table
    return joined, child.c[path[-1][0]]


def _sql(env: Environment, entity: str, path: list[tuple[str, str]]) -> str:
    """Join from the row up the path's foreign keys (each onto its parent's key); the last one holds the person key.
    Outer joins, so an empty foreign key on the way gives an empty owner rather than no row."""
    key = env.entities[entity].statements.table.c[env.entities[entity].key]
    if not path:
        return str(select(key).where(key == bindparam("key")).compile(dialect=_DIALECT))
    joined, person = _joined(env, entity, path, outer=True)
    query: Select[tuple[object]] = select(person).select_from(joined).where(key == bindparam("key"))
    return str(query.compile(dialect=_DIALECT))


def _first_rows_sql(env: Environment, entity: str, path: list[tuple[str, str]]) -> tuple[str | None, str]:
    """(first other row of `:owner`, first row of anyone but `:person`), both in key order. Inner joins: a row whose
    chain breaks has no owner, so neither query may return it; and they let SQLite start from the indexed foreign
    key of the owner's rows instead of the whole table."""
    table = env.entities[entity].statements.table
    key = table.c[env.entities[entity].key]
    if not path:
        others = select(key).where(key != bindparam("person")).order_by(key)
        return None, _first(others)
    joined, person = _joined(env, entity, path, outer=False)
    sibling = select(key).select_from(joined).where(person == bindparam("owner"), key != bindparam("key"))
    others = select(key).select_from(joined).where(person.is_not(None), person != bindparam("person"))
    return _first(sibling.order_by(key)), _first(others.order_by(key))


def _owned_sql(env: Environment, entity: str, path: list[tuple[str, str]]) -> str:
    """The rows of `:owner`, in key order; inner joins, as for `_first_rows_sql`."""
    table = env.entities[entity].statements.table
    key = table.c[env.entities[entity].key]
    if not path:
        query = select(table).where(key == bindparam("owner"))
    else:
        joined, person = _joined(env, entity, path, outer=False)
        query = select(table).select_from(joined).where(person == bindparam("owner")).order_by(key)
    # A literal LIMIT placeholder, as in `_first`: SQLAlchemy would name the parameter itself.
    return f"{query.compile(dialect=_DIALECT)} LIMIT :limit"


def _first(query: Select[Any]) -> str:
    # A literal LIMIT: SQLAlchemy would bind it as a parameter the callers do not pass.
    return f"{query.compile(dialect=_DIALECT)} LIMIT 1"

"""The difference between two states, from the two databases alone (no environment needed)."""

from __future__ import annotations

import sqlite3
from functools import lru_cache
from typing import Any

from sqlalchemy import column, select, table
from sqlalchemy.dialects import sqlite

from envforge.ir.tasks import RowChange
from envforge.runtime.history import PRIVATE_PREFIX

INITIAL = "initial"
_DIALECT = sqlite.dialect()
_TABLES = (
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
    f"AND substr(name, 1, {len(PRIVATE_PREFIX)}) != '{PRIVATE_PREFIX}' ORDER BY name"
)
"""The entity tables: not SQLite's own, nor envforge's (the write history)."""


@lru_cache(maxsize=1024)
def _except(name: str, columns: tuple[str, ...], left: str, right: str) -> str:
    """Rows of `left.name` that are not in `right.name` (compiled once per table shape)."""

    def of(schema: str) -> Any:
        return select(table(name, *(column(c) for c in columns), schema=schema))

    return str(of(left).except_(of(right)).compile(dialect=_DIALECT))


def _shape(connection: sqlite3.Connection, name: str) -> tuple[tuple[str, ...], str]:
    info = connection.execute("SELECT name, pk FROM pragma_table_info(?)", (name,)).fetchall()
    columns = tuple(row[0] for row in info)
    key = next((row[0] for row in info if row[1] == 1), columns[0])
    return columns, key


def normal(value: Any) -> Any:
    """Floats rounded, so that arithmetic noise is no change."""
    return round(value, 6) if isinstance(value, float) else value


def diff_states(initial: bytes, final: bytes) -> list[RowChange]:
    """Every inserted, deleted and updated row, in a stable order. Inserted rows' own keys are dropped
    and references to keys inserted in the same run become `<new ENTITY>`, so call order does not matter."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(final)
        connection.execute("ATTACH DATABASE ':memory:' AS initial")
        connection.deserialize(initial, name=INITIAL)
        return _diff(connection)
    finally:
        connection.close()


def _diff(connection: sqlite3.Connection) -> list[RowChange]:
    changes: list[RowChange] = []
    inserted: list[tuple[str, str, dict[str, Any]]] = []
    new_keys: dict[Any, str] = {}
    for (name,) in connection.execute(_TABLES).fetchall():
        columns, key = _shape(connection, name)
        index = columns.index(key)
        after = {row[index]: row for row in connection.execute(_except(name, columns, "main", INITIAL))}
        before = {row[index]: row for row in connection.execute(_except(name, columns, INITIAL, "main"))}
        for row_key in sorted(set(after) & set(before), key=str):
            old, new = before[row_key], after[row_key]
            fields = [c for c, o, n in zip(columns, old, new, strict=True) if normal(o) != normal(n)]
            changes.append(
                RowChange(
                    entity=name,
                    key=str(row_key),
                    before={f: normal(old[columns.index(f)]) for f in fields},
                    after={f: normal(new[columns.index(f)]) for f in fields},
                )
            )
        for row_key in sorted(set(before) - set(after), key=str):
            row = dict(zip(columns, map(normal, before[row_key]), strict=True))
            changes.append(RowChange(entity=name, key=str(row_key), before=row, after=None))
        for row_key in sorted(set(after) - set(before), key=str):
            row = {c: normal(v) for c, v in zip(columns, after[row_key], strict=True) if c != key}
            inserted.append((name, str(row_key), row))
            new_keys[row_key] = name
    for name, _, row in inserted:
        canonical = {field: f"<new {new_keys[value]}>" if value in new_keys else value for field, value in row.items()}
        changes.append(RowChange(entity=name, key=None, before=None, after=canonical))
    return changes

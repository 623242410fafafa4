"""A session's write history, captured by the store itself.

Each entity table carries AFTER INSERT, UPDATE and DELETE triggers that append the row before and after
the write, as JSON, to a log table in the same database. So the history:

- holds every committed write, whoever issued the SQL (tool dispatch, an app form, a harness);
- holds nothing of a refused call: its transaction rolls back, and the trigger's rows with it;
- travels with the state: a snapshot carries its history, and resetting to the template clears it.

Triggers rather than SQLite's session extension: Python's `sqlite3` does not expose the extension, and the
bindings that do are third-party builds outside the standard library. Triggers need nothing beyond SQLite,
keep reset a plain `deserialize`, and let a verifier read the history from the final state's bytes alone.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable

from envforge.ir.tasks import RowWrite

HISTORY = "_envforge_writes"
"""The log table; its name starts like every table envforge keeps beside an environment's entities."""
PRIVATE_PREFIX = "_envforge_"
_SELECT = f"SELECT seq, entity, key, op, before, after FROM {HISTORY} ORDER BY seq"


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _row_json(alias: str, columns: Iterable[str]) -> str:
    pairs = ", ".join(f"'{column}', {alias}.{_quote(column)}" for column in columns)
    return f"json_object({pairs})"


def history_ddl(tables: dict[str, tuple[str, list[str]]]) -> list[str]:
    """The log table and each entity table's triggers; `tables` maps a table to (key column, columns)."""
    statements = [
        f"CREATE TABLE IF NOT EXISTS {HISTORY} (seq INTEGER PRIMARY KEY, entity TEXT NOT NULL, key TEXT NOT NULL, "
        "op TEXT NOT NULL, before TEXT, after TEXT)"
    ]
    for table, (key, columns) in sorted(tables.items()):
        quoted, new, old = _quote(table), _row_json("new", columns), _row_json("old", columns)
        log = f"INSERT INTO {HISTORY} (entity, key, op, before, after) VALUES"
        triggers = {
            "insert": f"{log} ('{table}', CAST(new.{_quote(key)} AS TEXT), 'insert', NULL, {new})",
            "update": f"{log} ('{table}', CAST(old.{_quote(key)} AS TEXT), 'update', {old}, {new})",
            "delete": f"{log} ('{table}', CAST(old.{_quote(key)} AS TEXT), 'delete', {old}, NULL)",
        }
        for op, body in triggers.items():
            name = _quote(f"{PRIVATE_PREFIX}{table}_{op}")
            statements.append(f"CREATE TRIGGER IF NOT EXISTS {name} AFTER {op.upper()} ON {quoted} BEGIN {body}; END")
    return statements


def install_history(connection: sqlite3.Connection, ddl: list[str]) -> None:
    """Add the log and triggers to the connection's database, unless it has them."""
    if connection.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (HISTORY,)).fetchone() is None:
        connection.execute("BEGIN")
        for statement in ddl:
            connection.execute(statement)
        connection.execute("COMMIT")


def drop_history(connection: sqlite3.Connection) -> None:
    """Remove the log and triggers, e.g. to trace the SQL a call issues as it would run on the package's state."""
    triggers = connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'trigger' AND substr(name, 1, ?) = ?",
        (len(PRIVATE_PREFIX), PRIVATE_PREFIX),
    ).fetchall()
    for (name,) in triggers:
        connection.execute(f"DROP TRIGGER {_quote(name)}")
    connection.execute(f"DROP TABLE IF EXISTS {HISTORY}")


def with_history(state: bytes, ddl: list[str]) -> bytes:
    """`state` with the log and triggers installed (unchanged if it already has them)."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    try:
        connection.deserialize(state)
        install_history(connection, ddl)
        return connection.serialize()
    finally:
        connection.close()


def read_history(connection: sqlite3.Connection) -> list[RowWrite]:
    """Every write the connection's database logged, in order; empty where no history was kept."""
    try:
        rows = connection.execute(_SELECT).fetchall()
    except sqlite3.OperationalError:
        return []
    return [
        RowWrite(
            seq=seq,
            entity=entity,
            key=key,
            op=op,
            before=json.loads(before) if before is not None else None,
            after=json.loads(after) if after is not None else None,
        )
        for seq, entity, key, op, before, after in rows
    ]


def history_of(state: bytes) -> list[RowWrite]:
    """The write history a state's bytes carry."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(state)
        return read_history(connection)
    finally:
        connection.close()

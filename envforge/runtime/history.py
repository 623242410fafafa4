"""A session's write history, captured by the store itself.

Each entity table carries AFTER INSERT, UPDATE and DELETE triggers that append the row before and after
the write, as JSON, to a log table in the same database. Beside it, a call log holds each committed WRITE
call (tool and arguments, logged inside the call's own transaction), each refused attempt at one (logged after
its rollback, with why it was refused), and each READ call with the keys of the rows it returned (and, for a
lookup of the person, the person keys); a row write names the call that made it. So the history:

- holds every committed write, whoever issued the SQL (tool dispatch, an app form, a harness); a write
  issued outside a tool call names no call;
- holds no write of a refused call: its transaction rolls back, and the trigger's rows with it;
- travels with the state: a snapshot carries its history, and resetting to the template clears it.

Triggers rather than SQLite's session extension: Python's `sqlite3` does not expose the extension, and the
bindings that do are third-party builds outside the standard library. Triggers need nothing beyond SQLite,
keep reset a plain `deserialize`, and let a verifier read the history from the final state's bytes alone.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Mapping
from typing import Protocol

from envforge.hashing import canonical_json
from envforge.ir.tasks import CallRecord, RowWrite, RunHistory
from envforge.ir.toolspec import ToolArguments

HISTORY = "_envforge_writes"
"""The row log; its name starts like every table envforge keeps beside an environment's entities."""
CALLS = "_envforge_calls"
"""The call log."""
PRIVATE_PREFIX = "_envforge_"
_SELECT_WRITES = f"SELECT seq, call, entity, key, op, before, after FROM {HISTORY} ORDER BY seq"
_SELECT_CALLS = f"SELECT seq, tool, kind, arguments, persons, rows, refusal, others FROM {CALLS} ORDER BY seq"


class _Statements(Protocol):
    key: str
    insert: str
    delete_by_key: str

    def update(self, fields: tuple[str, ...]) -> str: ...


class Undoable(Protocol):
    """What undoing needs of an entity (`envforge.runtime.environment.EntityRuntime` has it)."""

    @property
    def statements(self) -> _Statements: ...


OPEN_INDEX = f"{PRIVATE_PREFIX}calls_open"
"""The call log's index of its open call: a partial index, so it holds at most one entry however long the run."""
_OPEN = "open = 1"
"""How the open call is found; the same text as the index's WHERE, so SQLite uses the index (a row write's trigger
and closing a call would otherwise scan the whole call log, making a WRITE cost what the run logged)."""
_OPEN_CALL = f"(SELECT seq FROM {CALLS} WHERE {_OPEN})"


def quote(name: str) -> str:
    """An SQL identifier, quoted."""
    return '"' + name.replace('"', '""') + '"'


def _row_json(alias: str, columns: Iterable[str]) -> str:
    pairs = ", ".join(f"'{column}', {alias}.{quote(column)}" for column in columns)
    return f"json_object({pairs})"


def history_ddl(tables: dict[str, tuple[str, list[str]]]) -> list[str]:
    """The log table and each entity table's triggers; `tables` maps a table to (key column, columns)."""
    statements = [
        f"CREATE TABLE IF NOT EXISTS {CALLS} (seq INTEGER PRIMARY KEY, tool TEXT NOT NULL, kind TEXT NOT NULL, "
        "arguments TEXT NOT NULL, persons TEXT, rows TEXT, refusal TEXT, others TEXT, open INTEGER NOT NULL DEFAULT 0)",
        f"CREATE TABLE IF NOT EXISTS {HISTORY} (seq INTEGER PRIMARY KEY, call INTEGER, entity TEXT NOT NULL, "
        "key TEXT NOT NULL, op TEXT NOT NULL, before TEXT, after TEXT)",
        f"CREATE INDEX IF NOT EXISTS {quote(OPEN_INDEX)} ON {CALLS} (open) WHERE {_OPEN}",
    ]
    for table, (key, columns) in sorted(tables.items()):
        quoted, new, old = quote(table), _row_json("new", columns), _row_json("old", columns)
        log = f"INSERT INTO {HISTORY} (call, entity, key, op, before, after) VALUES ({_OPEN_CALL}, "
        triggers = {
            "insert": f"{log}'{table}', CAST(new.{quote(key)} AS TEXT), 'insert', NULL, {new})",
            "update": f"{log}'{table}', CAST(old.{quote(key)} AS TEXT), 'update', {old}, {new})",
            "delete": f"{log}'{table}', CAST(old.{quote(key)} AS TEXT), 'delete', {old}, NULL)",
        }
        for op, body in triggers.items():
            name = quote(f"{PRIVATE_PREFIX}{table}_{op}")
            statements.append(f"CREATE TRIGGER IF NOT EXISTS {name} AFTER {op.upper()} ON {quoted} BEGIN {body}; END")
    return statements


def install_history(connection: sqlite3.Connection, ddl: list[str]) -> None:
    """Add the log, its index and the triggers to the connection's database, unless it has them (a snapshot made
    before the index existed gets it)."""
    names = (HISTORY, OPEN_INDEX)
    if connection.execute("SELECT count(*) FROM sqlite_master WHERE name IN (?, ?)", names).fetchone()[0] < len(names):
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
        connection.execute(f"DROP TRIGGER {quote(name)}")
    connection.execute(f"DROP TABLE IF EXISTS {HISTORY}")
    connection.execute(f"DROP TABLE IF EXISTS {CALLS}")


def open_call(connection: sqlite3.Connection, tool: str, arguments: ToolArguments) -> None:
    """Log a WRITE call inside its transaction: the rows it writes name it, and a rollback forgets it."""
    connection.execute(
        f"INSERT INTO {CALLS} (tool, kind, arguments, open) VALUES (?, 'write', ?, 1)",
        (tool, canonical_json(arguments)),
    )


def close_call(connection: sqlite3.Connection) -> None:
    """End the open WRITE call, before its transaction commits."""
    connection.execute(f"UPDATE {CALLS} SET open = 0 WHERE {_OPEN}")


def log_read(
    connection: sqlite3.Connection,
    tool: str,
    arguments: ToolArguments,
    rows: dict[str, list[str]],
    persons: list[str] | None,
    others: dict[str, dict[str, str]] | None = None,
) -> None:
    """Log a READ call, the keys of the rows it returned, and for a lookup of people the person keys and what it
    showed of people other than the one served."""
    connection.execute(
        f"INSERT INTO {CALLS} (tool, kind, arguments, persons, rows, others) VALUES (?, 'read', ?, ?, ?, ?)",
        (
            tool,
            canonical_json(arguments),
            None if persons is None else json.dumps(persons),
            json.dumps(rows),
            canonical_json(others) if others else None,
        ),
    )


def log_attempt(connection: sqlite3.Connection, tool: str, arguments: ToolArguments, refusal: str) -> None:
    """Log a refused WRITE call after its rollback: it wrote nothing, but the run tried it."""
    connection.execute(
        f"INSERT INTO {CALLS} (tool, kind, arguments, refusal) VALUES (?, 'write', ?, ?)",
        (tool, canonical_json(arguments), refusal),
    )


def with_history(state: bytes, ddl: list[str]) -> bytes:
    """`state` with the log and triggers installed (unchanged if it already has them)."""
    connection = sqlite3.connect(":memory:", isolation_level=None)
    try:
        connection.deserialize(state)
        install_history(connection, ddl)
        return connection.serialize()
    finally:
        connection.close()


def read_writes(connection: sqlite3.Connection) -> list[RowWrite]:
    """Every row write the connection's database logged, in order; empty where no history was kept."""
    try:
        rows = connection.execute(_SELECT_WRITES).fetchall()
    except sqlite3.OperationalError:
        return []
    return [
        RowWrite(
            seq=seq,
            call=call,
            entity=entity,
            key=key,
            op=op,
            before=json.loads(before) if before is not None else None,
            after=json.loads(after) if after is not None else None,
        )
        for seq, call, entity, key, op, before, after in rows
    ]


def read_calls(connection: sqlite3.Connection) -> list[CallRecord]:
    """Every logged call, in order; empty where no history was kept."""
    try:
        rows = connection.execute(_SELECT_CALLS).fetchall()
    except sqlite3.OperationalError:
        return []
    return [
        CallRecord(
            seq=seq,
            tool=tool,
            kind=kind,
            arguments=json.loads(arguments),
            persons=json.loads(persons) if persons is not None else [],
            rows=json.loads(returned) if returned is not None else {},
            refusal=refusal,
            others=json.loads(others) if others is not None else {},
        )
        for seq, tool, kind, arguments, persons, returned, refusal, others in rows
    ]


def key_columns(connection: sqlite3.Connection, entities: Iterable[str]) -> dict[str, str]:
    """Entity -> its key column, for the entities named. Only on a connection whose database is never replaced:
    a table-valued pragma's cached statement crashes SQLite once `deserialize` swapped the database under it."""
    keys = {}
    for entity in sorted(set(entities)):
        info = connection.execute("SELECT name, pk FROM pragma_table_info(?)", (entity,)).fetchall()
        keys[entity] = next((name for name, pk in info if pk == 1), info[0][0])
    return keys


def read_history(connection: sqlite3.Connection, keys: dict[str, str] | None = None) -> RunHistory:
    """The calls and row writes the connection's database logged; empty where no history was kept. `keys` maps
    entities to key columns where the caller knows them (else the schema is asked)."""
    writes = read_writes(connection)
    entities = {write.entity for write in writes}
    known = key_columns(connection, entities) if keys is None else {entity: keys[entity] for entity in sorted(entities)}
    return RunHistory(calls=read_calls(connection), writes=writes, keys=known)


def history_of(state: bytes) -> RunHistory:
    """The write history a state's bytes carry."""
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(state)
        return read_history(connection)
    finally:
        connection.close()


HistoryMark = tuple[int, int]
"""Where the logs end: the seq of the last row write and of the last call (0 where none)."""
START: HistoryMark = (0, 0)
"""The mark of an empty history."""


def history_mark(connection: sqlite3.Connection) -> HistoryMark:
    """Where the logs end now: `undo_history(..., since=mark)` gets the state and its history back here."""
    writes = connection.execute(f"SELECT max(seq) FROM {HISTORY}").fetchone()[0]
    calls = connection.execute(f"SELECT max(seq) FROM {CALLS}").fetchone()[0]
    return writes or 0, calls or 0


def undo_history(
    connection: sqlite3.Connection, entities: Mapping[str, Undoable], limit: int, since: HistoryMark = START
) -> bool:
    """Undo every write logged after `since`, newest first, and forget the calls and writes logged after it; False
    (nothing done) where there is no history, more than `limit` writes to undo, or a write the log cannot undo."""
    last_write, last_call = since
    try:
        count = connection.execute(f"SELECT count(*) FROM {HISTORY} WHERE seq > ?", (last_write,)).fetchone()[0]
    except sqlite3.OperationalError:
        return False
    if count > limit:
        return False
    rows = connection.execute(
        f"SELECT entity, op, before, after FROM {HISTORY} WHERE seq > ? ORDER BY seq DESC", (last_write,)
    ).fetchall()
    connection.execute("BEGIN")
    try:
        for entity, op, before, after in rows:
            statements = entities[entity].statements
            if op == "insert":
                row = json.loads(after)
                connection.execute(statements.delete_by_key, {statements.key: row[statements.key]})
            elif op == "delete":
                connection.execute(statements.insert, json.loads(before))
            else:
                row = json.loads(before)
                key = row.pop(statements.key)
                values = {f"new_{name}": value for name, value in row.items()}
                connection.execute(statements.update(tuple(row)), {**values, statements.key: key})
        # The undo's own writes were logged too, after `since`: this forgets them with the ones undone.
        connection.execute(f"DELETE FROM {HISTORY} WHERE seq > ?", (last_write,))
        connection.execute(f"DELETE FROM {CALLS} WHERE seq > ?", (last_call,))
        connection.execute("COMMIT")
    except (sqlite3.Error, KeyError):
        connection.execute("ROLLBACK")
        return False
    return True

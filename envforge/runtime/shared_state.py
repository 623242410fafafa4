"""Sessions that share one copy of the template: each pays for what it changed, not for the whole state.

A private session deserializes the template's bytes into a connection of its own, so a thousand live sessions of a
100k-row domain hold a thousand copies of it. The sessions of one episode store instead take turns on ONE
connection that holds the template once. The session whose turn it is has its writes live there; a parked
session is only its history: the call log and the row images the triggers recorded (`envforge.runtime.history`),
kept in Python. So a turn changes hands in O(changes):

- parking the active session keeps its log rows, then undoes its writes (`undo_history`);
- activating a parked session replays its after-images in order, then puts its log rows back verbatim (same
  seqs, same order), so its history, verdicts, state hash and next call are those a private connection gives.

Why not a mechanism inside SQLite: Python's `sqlite3` offers no VFS hook (apsw does, but its SQLite is not the
one every other module's connections use), a shared-cache memory database shares writes between its
connections, and a copy-on-write snapshot of a memory database needs a VFS. The log the triggers already keep is
exactly the overlay a session needs.

A session falls back to a private connection, as every session had before, where an overlay does not pay or
cannot be kept: a reset to a foreign snapshot, a dropped history, or more writes than `undo_limit` (undoing past
it costs more than the copy). Every use of a session's connection takes the store's lock and the session's turn
first (`Session.turn`), so threads and tasks serving different episodes never see each other's state.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from envforge.runtime.history import CALLS, HISTORY, undo_history

if TYPE_CHECKING:
    from collections.abc import Mapping

    from envforge.runtime.environment import EntityRuntime, Environment

_WRITES = "seq, call, entity, key, op, before, after"
"""The row log's columns, as `history_ddl` creates them."""


def open_state(state: bytes) -> sqlite3.Connection:
    """A connection holding its own copy of `state`, set up as every session's is."""
    connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    load_state(connection, state)
    connection.row_factory = sqlite3.Row
    return connection


def load_state(connection: sqlite3.Connection, state: bytes) -> None:
    """Replace the connection's database with `state`."""
    connection.deserialize(state)
    connection.execute("PRAGMA foreign_keys = ON")


@dataclass
class Parked:
    """A parked session's history: its log rows as stored, oldest first."""

    writes: list[tuple[Any, ...]] = field(default_factory=list)
    calls: list[tuple[Any, ...]] = field(default_factory=list)


def _redo(connection: sqlite3.Connection, entities: Mapping[str, EntityRuntime], writes: list[tuple[Any, ...]]) -> None:
    """Apply each logged write's after-image again, in order (the triggers log them anew: the caller replaces those
    log rows by the kept ones)."""
    for _seq, _call, entity, _key, op, before, after in writes:
        statements = entities[entity].statements
        if op == "insert":
            connection.execute(statements.insert, json.loads(after))
        elif op == "delete":
            row = json.loads(before)
            connection.execute(statements.delete_by_key, {statements.key: row[statements.key]})
        else:
            row = json.loads(after)
            key = row.pop(statements.key)
            values = {f"new_{name}": value for name, value in row.items()}
            connection.execute(statements.update(tuple(row)), {**values, statements.key: key})


class Member(Protocol):
    """What the shared connection needs of a session taking turns on it (`envforge.runtime.session.Session`)."""

    parked: Parked

    def go_private(self, state: bytes) -> None: ...


class SharedState:
    """One connection holding an environment's template, on which the sessions of a store take turns."""

    def __init__(self, env: Environment, undo_limit: int) -> None:
        self.env = env
        self.undo_limit = undo_limit
        """Past this many writes a parked session goes private: undoing them costs more than copying the state."""
        self.connection = open_state(env.template)
        self.lock = threading.RLock()
        """Held across a turn change and the call that needed it."""
        self.active: Member | None = None
        """The session whose writes are live in the connection; every other member is parked."""

    def activate(self, session: Member) -> None:
        """Give `session` the connection with its state live in it (the caller holds `lock`)."""
        if self.active is session:
            return
        if self.active is not None:
            self._park(self.active)
        parked, session.parked = session.parked, Parked()
        if parked.writes or parked.calls:
            self._restore(parked)
        self.active = session

    def release(self, session: Member) -> None:
        """Forget `session`'s state: it closes, resets to the template, or goes private (the caller holds `lock`)."""
        session.parked = Parked()
        if self.active is session:
            self.active = None
            if not undo_history(self.connection, self.env.entities, self.undo_limit):
                load_state(self.connection, self.env.template)

    def detach(self, session: Member) -> bytes:
        """The state of `session` as bytes, now no longer kept here: the session goes on privately from them."""
        self.activate(session)
        state = self.connection.serialize()
        self.release(session)
        return state

    def _park(self, session: Member) -> None:
        connection = self.connection
        cursor = connection.cursor()
        cursor.row_factory = None  # plain tuples, built in C: a long run's log is read at every park
        writes = cursor.execute(f"SELECT {_WRITES} FROM {HISTORY} ORDER BY seq").fetchall()
        calls = cursor.execute(f"SELECT * FROM {CALLS} ORDER BY seq").fetchall()
        self.active = None
        if not undo_history(connection, self.env.entities, self.undo_limit):
            # Too many writes, or one the log cannot undo: the session keeps its state privately, and the others
            # get the template back from its bytes.
            session.go_private(connection.serialize())
            load_state(connection, self.env.template)
            return
        session.parked = Parked(writes, calls)

    def _restore(self, parked: Parked) -> None:
        connection = self.connection
        connection.execute("BEGIN")
        try:
            _redo(connection, self.env.entities, parked.writes)
            connection.execute(f"DELETE FROM {HISTORY}")
            connection.execute(f"DELETE FROM {CALLS}")
            connection.executemany(f"INSERT INTO {HISTORY} ({_WRITES}) VALUES (?, ?, ?, ?, ?, ?, ?)", parked.writes)
            if parked.calls:
                marks = ", ".join("?" * len(parked.calls[0]))
                connection.executemany(f"INSERT INTO {CALLS} VALUES ({marks})", parked.calls)
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise

"""One isolated state: an in-memory SQLite database reset from the template's bytes, private to the session or
shared with the other sessions of a store (`envforge.runtime.shared_state`)."""

from __future__ import annotations

import logging
import reprlib
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from typing import Any

from envforge.hashing import canonical_json, hash_bytes
from envforge.ir.conditions import RuleVerdict
from envforge.ir.tasks import RunHistory
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.dispatch import Dispatcher, shown_name
from envforge.runtime.environment import Environment
from envforge.runtime.errors import ToolError
from envforge.runtime.history import drop_history, install_history, read_history, undo_history
from envforge.runtime.shared_state import Parked, SharedState, load_state, open_state

logger = logging.getLogger(__name__)
UNDO_LIMIT = 5000
"""Past this many logged writes, reloading the template (or copying the state) is cheaper than undoing them."""
LOGGED = reprlib.Repr()
"""How a failed call's arguments are logged: a megabyte argument must not become a megabyte log line."""
LOGGED.maxstring = LOGGED.maxother = 200


SQLITE_HEADER = b"SQLite format 3\x00"


def snapshot_problem(env: Environment, state: bytes) -> str | None:
    """Why `state` cannot be a snapshot of this environment (None: it can), checked on a scratch connection,
    so a bad snapshot never replaces a session's state."""
    if not state.startswith(SQLITE_HEADER):
        return "the snapshot is empty" if not state else "the snapshot is not a SQLite database"
    scratch = sqlite3.connect(":memory:")
    try:
        scratch.deserialize(state)
        if scratch.execute("PRAGMA quick_check").fetchone()[0] != "ok":
            return "the snapshot's SQLite database is damaged"
        for name, runtime in env.entities.items():
            columns = {row[1] for row in scratch.execute("SELECT * FROM pragma_table_info(?)", (name,))}
            expected = set(runtime.statements.table.columns.keys())
            if not expected <= columns:
                return f"the snapshot has no table '{name}' with the columns {', '.join(sorted(expected))}"
    except sqlite3.DatabaseError as exc:
        return f"the snapshot is not a usable SQLite database ({exc})"
    finally:
        scratch.close()
    return None


class Session:
    """An episode's private state. Calls never leak into other sessions or the template.

    Given `shared`, the session takes turns on that connection with the other sessions of its store, and holds
    only its history while parked; it goes private where sharing does not pay (see `envforge.runtime.shared_state`).
    """

    def __init__(self, env: Environment, person: str | None = None, shared: SharedState | None = None) -> None:
        self.env = env
        self.shared = shared
        """The store's shared connection this session may take turns on (None: always private)."""
        self.joined = shared is not None
        """Whether the session's state lives on `shared` now, rather than on a private connection."""
        self.parked = Parked()
        """While joined and not active: the history that rebuilds the state on the shared connection."""
        self._connection = shared.connection if shared is not None else open_state(env.template)
        self.dispatcher = Dispatcher(env, self._connection)
        self.at_template = True
        """The history holds every write since the template: undoing it gets back there."""
        self.act_for(person)

    @property
    def person(self) -> str | None:
        """Key of the person the calls act for (writes to other people's rows are refused); None checks nothing."""
        return self.dispatcher.actions.person

    def act_for(self, person: str | None) -> None:
        """Act for `person` from the next call on (None: no ownership check)."""
        self.dispatcher.actions.person = person

    @contextmanager
    def turn(self) -> Iterator[sqlite3.Connection]:
        """The connection with this session's state live in it, kept so while the block runs (a shared one is
        locked against the store's other sessions meanwhile)."""
        shared = self.shared
        with shared.lock if shared is not None else nullcontext():
            if self.joined and shared is not None:
                shared.activate(self)
            yield self._connection

    @property
    def connection(self) -> sqlite3.Connection:
        """The connection with this session's state live in it; code that may run beside other sessions of a store
        (threads, tasks) uses `turn` instead, which keeps it so."""
        with self.turn() as connection:
            return connection

    def go_private(self, state: bytes) -> None:
        """Go on from `state` on a connection of the session's own (the shared connection no longer holds it)."""
        self._rebind(open_state(state))
        self.joined = False

    def _rebind(self, connection: sqlite3.Connection) -> None:
        person, logging = self.person, self.dispatcher.actions.logging
        self._connection = connection
        self.dispatcher = Dispatcher(self.env, connection)
        self.dispatcher.actions.person = person
        self.dispatcher.actions.logging = logging

    def reset(self, state: bytes | None = None) -> None:
        """Return to the template state, with an empty history (or to `state`, a snapshot and its history).

        Back to the template, a session that has been there since its last reset undoes its history instead of
        reloading the whole state, so a reset costs what the run wrote, not what the state holds. Code that edits
        the `_envforge_` log tables by hand must reset to the template's bytes instead."""
        shared = self.shared
        if shared is not None and (self.joined or (state is None and self.dispatcher.actions.logging)):
            with shared.lock:
                self._reset_shared(shared, state)
            return
        if state is None and self.at_template and undo_history(self._connection, self.env.entities, UNDO_LIMIT):
            return
        self._load(state)

    def _reset_shared(self, shared: SharedState, state: bytes | None) -> None:
        if self.joined:
            shared.release(self)
        if state is not None:
            self.go_private(state)
            install_history(self._connection, self.env.history_ddl)
            self.at_template = False
            return
        if not self.joined:
            # Back from a private fallback: the template is on the shared connection already.
            self._connection.close()
            self._rebind(shared.connection)
            self.joined = True
        self.at_template = True

    def _load(self, state: bytes | None) -> None:
        load_state(self._connection, state if state is not None else self.env.template)
        if state is not None:
            install_history(self._connection, self.env.history_ddl)
        self.at_template = state is None

    def close(self) -> None:
        if self.joined and self.shared is not None:
            with self.shared.lock:
                self.shared.release(self)
                # A closed session must fail as a closed connection does, never act on the shared one.
                closed = sqlite3.connect(":memory:")
                closed.close()
                self._rebind(closed)
                self.joined = False
                self.shared = None
            return
        self._connection.close()

    def call(self, tool: str, arguments: ToolArguments | None = None) -> ToolResult:
        """Call a tool; returns its result or raises ToolError (state unchanged on error)."""
        if not self.joined:
            # A private connection needs no turn: the hot path of single-session callers stays a plain dispatch.
            return self.dispatcher.call(tool, arguments if arguments is not None else {})
        with self.turn():
            return self.dispatcher.call(tool, arguments if arguments is not None else {})

    def call_tool(self, tool: str, arguments: ToolArguments | None = None) -> tuple[bool, ToolResult]:
        """Call a tool; returns (ok, result or `{"error": {...}}`). Never raises for a bad call."""
        try:
            return True, self.call(tool, arguments)
        except ToolError as error:
            return False, error.to_dict()
        except Exception:
            # A bug, not a bad call: the transaction was rolled back; the agent gets an error, the log the trace.
            logger.exception("tool %s failed on %s", shown_name(tool), LOGGED.repr(arguments))
            return False, ToolError(
                "internal_error", "the tool failed unexpectedly; the state is unchanged", tool=tool
            ).to_dict()

    def breaches(self, tool: str, arguments: ToolArguments) -> list[str]:
        """Ids of the policies left to the agent (`kept_by: agent`) that calling `tool` with `arguments` would
        break now. The runtime lets such a call through; task synthesis and checks ask here. Empty for reads
        and for calls that cannot bind their rows."""
        runner = self.dispatcher.actions
        action = runner.actions.get(tool)
        if action is None or not action.kept_by_agent:
            return []
        try:
            with self.turn():
                return runner.breaches(action, arguments)
        except ToolError:
            return []

    def verdicts(self, tool: str, arguments: ToolArguments) -> list[RuleVerdict]:
        """Each policy on `tool`: whether calling it with `arguments` now keeps the policy, and the conditions
        that verdict turns on (`envforge.ir.conditions`). Empty for reads and for calls that cannot bind."""
        runner = self.dispatcher.actions
        action = runner.actions.get(tool)
        if action is None:
            return []
        try:
            with self.turn():
                return runner.verdicts(action, arguments)
        except ToolError:
            return []

    def offer(self, tool: str, arguments: ToolArguments) -> tuple[str, str, ToolArguments] | None:
        """When calling `tool` would break a policy that offers something instead (`instead:` in the blueprint):
        the policy's id, the offered tool and its arguments. None otherwise, and for calls that cannot bind."""
        runner = self.dispatcher.actions
        action = runner.actions.get(tool)
        if action is None:
            return None
        try:
            with self.turn():
                return runner.offer(action, arguments)
        except ToolError:
            return None

    def drop_history(self) -> None:
        """Stop keeping a history, e.g. to trace the SQL a call issues as it would run on the package's state.
        A reset then reloads the template."""
        if self.joined and self.shared is not None:
            with self.shared.lock:
                self.go_private(self.shared.detach(self))
        drop_history(self._connection)
        self.dispatcher.actions.logging = False
        self.at_template = False

    def history(self) -> RunHistory:
        """The calls and row writes committed since the last reset, in order (`envforge.runtime.history`)."""
        with self.turn() as connection:
            return read_history(connection, self.env.keys)

    def snapshot(self) -> bytes:
        """The current state as SQLite database bytes, its write history included."""
        with self.turn() as connection:
            return connection.serialize()

    def rows(self, entity: str) -> list[dict[str, Any]]:
        """Every row of an entity, ordered by key."""
        runtime = self.env.entities[entity]
        with self.turn() as connection:
            return [dict(row) for row in connection.execute(runtime.statements.select_all)]

    def state_hash(self) -> str:
        """A hash of the content (not the bytes) of every table: equal states hash equal."""
        with self.turn() as connection:
            tables = {
                name: [list(row) for row in connection.execute(runtime.statements.select_all)]
                for name, runtime in sorted(self.env.entities.items())
            }
        return hash_bytes(canonical_json(tables).encode())

"""One isolated state: an in-memory SQLite database reset from the template's bytes."""

from __future__ import annotations

import logging
import reprlib
import sqlite3
from typing import Any

from envforge.hashing import canonical_json, hash_bytes
from envforge.ir.conditions import RuleVerdict
from envforge.ir.tasks import RunHistory
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.dispatch import Dispatcher, shown_name
from envforge.runtime.environment import Environment
from envforge.runtime.errors import ToolError
from envforge.runtime.history import drop_history, install_history, read_history, undo_history

logger = logging.getLogger(__name__)
LOGGED = reprlib.Repr()
"""How a failed call's arguments are logged: a megabyte argument must not become a megabyte log line."""
LOGGED.maxstring = LOGGED.maxother = 200
UNDO_LIMIT = 5000
"""Past this many logged writes, reloading the template is cheaper than undoing them."""


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
    """An episode's private state. Calls never leak into other sessions or the template."""

    def __init__(self, env: Environment, person: str | None = None) -> None:
        self.env = env
        self.connection = self._open()
        self.dispatcher = Dispatcher(env, self.connection)
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

    def _open(self) -> sqlite3.Connection:
        connection = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        connection.deserialize(self.env.template)
        connection.execute("PRAGMA foreign_keys = ON")
        connection.row_factory = sqlite3.Row
        return connection

    def reset(self, state: bytes | None = None) -> None:
        """Return to the template state, with an empty history (or to `state`, a snapshot and its history).

        Back to the template, a session that has been there since its last reset undoes its history instead of
        reloading the whole state, so a reset costs what the run wrote, not what the state holds. Code that edits
        the `_envforge_` log tables by hand must reset to the template's bytes instead."""
        if state is None and self.at_template and undo_history(self.connection, self.env.entities, UNDO_LIMIT):
            return
        self.connection.deserialize(state if state is not None else self.env.template)
        self.connection.execute("PRAGMA foreign_keys = ON")
        if state is not None:
            install_history(self.connection, self.env.history_ddl)
        self.at_template = state is None

    def close(self) -> None:
        self.connection.close()

    def call(self, tool: str, arguments: ToolArguments | None = None) -> ToolResult:
        """Call a tool; returns its result or raises ToolError (state unchanged on error)."""
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
            return runner.offer(action, arguments)
        except ToolError:
            return None

    def drop_history(self) -> None:
        """Stop keeping a history, e.g. to trace the SQL a call issues as it would run on the package's state.
        A reset then reloads the template."""
        drop_history(self.connection)
        self.dispatcher.actions.logging = False
        self.at_template = False

    def history(self) -> RunHistory:
        """The calls and row writes committed since the last reset, in order (`envforge.runtime.history`)."""
        return read_history(self.connection, self.env.keys)

    def snapshot(self) -> bytes:
        """The current state as SQLite database bytes, its write history included."""
        return self.connection.serialize()

    def rows(self, entity: str) -> list[dict[str, Any]]:
        """Every row of an entity, ordered by key."""
        runtime = self.env.entities[entity]
        return [dict(row) for row in self.connection.execute(runtime.statements.select_all)]

    def state_hash(self) -> str:
        """A hash of the content (not the bytes) of every table: equal states hash equal."""
        tables = {
            name: [list(row) for row in self.connection.execute(runtime.statements.select_all)]
            for name, runtime in sorted(self.env.entities.items())
        }
        return hash_bytes(canonical_json(tables).encode())

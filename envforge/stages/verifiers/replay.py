"""Runs the gate plays on one session: each from the template, as an agent would make it.

Most of a task's mutants are its oracle with one call changed, dropped or added near the end, so a `Replayer` plays
each run on from where it parts from the run played before: it undoes the history back to the mark left after the
calls both share (`envforge.runtime.history.undo_history`), which costs what those later calls wrote, and plays the
rest. The session then holds what a replay from the template would leave, its history included (the logs number
their rows on from the last one kept, as a replay would), since a tool's effect depends on the state and the call
alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from envforge.ir.tasks import RunHistory, ToolCall
from envforge.runtime.history import START, HistoryMark, history_mark, undo_history
from envforge.runtime.session import UNDO_LIMIT, Session

Edit = tuple[str, tuple[Any, ...]]
"""A SQL statement and its parameters."""


def replay(session: Session, calls: list[ToolCall], edits: Sequence[Edit] = ()) -> RunHistory:
    """The history of `calls` and then `edits` played from the template."""
    session.reset()
    for call in calls:
        session.call_tool(call.name, call.arguments)
    for statement, parameters in edits:
        session.connection.execute(statement, parameters)
    return session.history()


class Replayer:
    """Replays runs on a session that nothing else plays on meanwhile (from the template, where it puts the session),
    each on from the calls it shares with the one played before."""

    def __init__(self, session: Session) -> None:
        self.session = session
        session.reset()
        self.played: list[ToolCall] = []
        self.marks: list[HistoryMark] = [START]
        """Where the history ended after each prefix of `played` (the empty one first)."""
        self.edited = False
        self.history: RunHistory | None = None
        """The history of the run played last, until another changes the session."""

    def play(self, calls: list[ToolCall]) -> tuple[RunHistory, list[dict[str, Any]]]:
        """`calls` played from the template, and each call's result."""
        self.session.reset()
        self.played, self.marks, self.edited = [], [START], False
        results = self._play_on(calls)
        return self._history(), results

    def replay(self, calls: list[ToolCall], edits: Sequence[Edit] = ()) -> RunHistory:
        """The history of `calls` and then `edits` played from the template."""
        shared = 0
        for mine, theirs in zip(self.played, calls, strict=False):
            if mine != theirs:
                break
            shared += 1
        if shared == len(self.played) == len(calls) and not self.edited and not edits and self.history is not None:
            return self.history
        if not self._undo(shared):
            self.session.reset()
            shared = 0
        del self.played[shared:], self.marks[shared + 1 :]
        self._play_on(calls[shared:])
        for statement, parameters in edits:
            self.session.connection.execute(statement, parameters)
        self.edited = bool(edits)
        return self._history()

    def _undo(self, shared: int) -> bool:
        """Back to where the history ended after the first `shared` calls played; False where it cannot be undone
        so (the session then holds what it held)."""
        if shared == len(self.played) and not self.edited:
            return True
        if not self.session.at_template:
            return False
        return undo_history(self.session.connection, self.session.env.entities, UNDO_LIMIT, since=self.marks[shared])

    def _play_on(self, calls: list[ToolCall]) -> list[dict[str, Any]]:
        results = []
        for call in calls:
            results.append(self.session.call_tool(call.name, call.arguments)[1])
            self.played.append(call)
            self.marks.append(history_mark(self.session.connection))
        return results

    def _history(self) -> RunHistory:
        self.history = self.session.history()
        return self.history

"""Reset, READ and WRITE rows: in-memory sessions beside a naive on-disk database (NaiveDatabase)."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from envforge.bench.calls import Probe
from envforge.bench.report import BenchRow, time_calls, timed_row
from envforge.errors import EnvforgeError
from envforge.runtime.environment import Environment
from envforge.runtime.session import Session

RESET_GOAL_MS = 1.0
CALL_GOAL_MS = 0.3


@contextmanager
def _session(env: Environment) -> Iterator[Session]:
    session = Session(env)
    try:
        yield session
    finally:
        session.close()


class NaiveDatabase:
    """The per-episode baseline: a copy of state.sqlite on disk, a fresh connection per operation."""

    def __init__(self, template: Path, path: Path) -> None:
        self.template = template
        self.path = path
        self.connection: sqlite3.Connection | None = None
        self.restore()

    def restore(self) -> None:
        self.close()
        shutil.copyfile(self.template, self.path)

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()
            self.connection = None

    def reset(self) -> None:
        """Copy the template file over the episode's file and open a connection on it."""
        shutil.copyfile(self.template, self.path)
        self.connection = self._connect()

    def replay(self, statements: tuple[str, ...]) -> None:
        """Run statements on a fresh connection (BEGIN/COMMIT included, so a write commits to disk)."""
        connection = self._connect()
        try:
            for statement in statements:
                connection.execute(statement).fetchall()
        finally:
            connection.close()

    def _connect(self) -> sqlite3.Connection:
        connection = sqlite3.connect(self.path, isolation_level=None)
        connection.execute("PRAGMA foreign_keys = ON")
        return connection


def bench_reset(env: Environment, template: Path, database: Path, *, repeat: int, warmup: int) -> BenchRow:
    with _session(env) as session:
        ours = time_calls(session.reset, repeat=repeat, warmup=warmup)
    naive = NaiveDatabase(template, database)
    try:
        baseline = time_calls(naive.reset, repeat=repeat, warmup=warmup, before=naive.close)
    finally:
        naive.close()
    return timed_row(
        "reset",
        "session reset",
        ours,
        "file copy + connect",
        baseline,
        goal=RESET_GOAL_MS,
        note=f"Session.reset() on a {len(env.template):,}-byte template; baseline copies the file within {tempfile.gettempdir()}",
    )


def bench_read(env: Environment, probe: Probe, template: Path, database: Path, *, repeat: int, warmup: int) -> BenchRow:
    with _session(env) as session:
        ours = time_calls(lambda: session.call(probe.tool, probe.arguments), repeat=repeat, warmup=warmup)
    naive = NaiveDatabase(template, database)
    baseline = time_calls(lambda: naive.replay(probe.statements), repeat=repeat, warmup=warmup)
    return timed_row(
        "read",
        f"READ {probe.tool}",
        ours,
        "connect per call",
        baseline,
        goal=CALL_GOAL_MS,
        note=f"Session.call({probe.tool!r}, {probe.arguments!r}); baseline runs the same SQL on an on-disk copy",
    )


def bench_write(
    env: Environment, probe: Probe, template: Path, database: Path, *, repeat: int, warmup: int
) -> BenchRow:
    with _session(env) as session:
        # Every sample starts from the initial state, as the baseline's does: a write may succeed only a few
        # times (a counter it uses up) or once (a status it moves on), and three successes say nothing of the next.
        ours = time_calls(
            lambda: session.call_tool(probe.tool, probe.arguments),
            repeat=repeat,
            warmup=warmup,
            before=session.reset,
            check=lambda outcome: expect_outcome(probe, outcome),
        )
    naive = NaiveDatabase(template, database)
    baseline = time_calls(lambda: naive.replay(probe.statements), repeat=repeat, warmup=warmup, before=naive.restore)
    return timed_row(
        "write",
        f"WRITE {probe.tool}" + ("" if probe.ok else f" (refused: {probe.outcome})"),
        ours,
        "connect + commit per call" if probe.ok else "connect per call",
        baseline,
        goal=CALL_GOAL_MS,
        note=_write_note(probe),
    )


def expect_outcome(probe: Probe, outcome: tuple[bool, dict[str, Any]]) -> None:
    """Raise unless a call of `probe` answered as when the probe was chosen."""
    ok, result = outcome
    code = "ok" if ok else str(result["error"]["code"])
    if code != probe.outcome:
        raise EnvforgeError(f"{probe.tool} answered {code} during the benchmark, not {probe.outcome} as when chosen")


def _write_note(probe: Probe) -> str:
    if not probe.ok:
        outcome = f"refused with {probe.outcome} every time (no WRITE call succeeded), state unchanged"
    else:
        outcome = "succeeds every time"
    if probe.ok and not probe.changes:
        outcome += " (no WRITE call that changes the state was found; this one leaves content as it was)"
    return (
        f"Session.call_tool({probe.tool!r}, {probe.arguments!r}): {outcome}, each sample from the initial state "
        "(the session is reset, untimed, before each); baseline replays the same SQL on an on-disk copy restored "
        "(untimed) before each sample and commits"
    )

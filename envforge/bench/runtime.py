"""`envforge bench`: the runtime's figures, each beside a naive baseline measured in the same run.

Ours: in-memory sessions reset from the template's bytes, tools served in-process, MCP through an
in-process client. Baselines: what a per-episode setup does without them - copy the database file,
open a fresh connection per call on that on-disk copy, start a fresh server process per episode.
"""

from __future__ import annotations

import gc
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import AsyncExitStack, contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from time import perf_counter_ns
from typing import TYPE_CHECKING, Any, TypeVar, cast

import anyio
import psutil

from envforge.errors import EnvforgeError, PackageError
from envforge.ir.toolspec import ToolSpec
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.mcp_server import EPISODE_META_KEY, EnvServer
from envforge.runtime.session import Session

if TYPE_CHECKING:
    from mcp_types import RequestParamsMeta

T = TypeVar("T")
MB = 1_000_000
STDIO_EPISODES = 5
"""Fresh-process episodes timed for the MCP baseline; each costs about a second."""
CANDIDATE_ROWS = 20
"""Rows tried per tool when looking for arguments that a tool accepts."""
REPEATABLE_CALLS = 3
RESET_GOAL_MS = 1.0
CALL_GOAL_MS = 0.3
RSS_GOAL_MB = 1000.0
RSS_GOAL_SESSIONS = 1000
"""The memory goal is stated for this many live sessions; other counts are reported without one."""
READ_OPERATIONS = ("get", "find", "list")
REFUSALS_BY_PREFERENCE = ("constraint_violation", "policy_violation", "precondition_failed", "not_found")


@dataclass(frozen=True)
class Timing:
    """Summary of one timed series, in milliseconds."""

    median: float
    p95: float
    samples: int


def summarize(samples_ns: list[int]) -> Timing:
    """Median and p95 (the 19th of 20 quantiles) of nanosecond samples, in milliseconds."""
    if not samples_ns:
        raise ValueError("no samples")
    p95 = statistics.quantiles(samples_ns, n=20, method="inclusive")[18] if len(samples_ns) > 1 else samples_ns[0]
    return Timing(statistics.median(samples_ns) / 1e6, p95 / 1e6, len(samples_ns))


def time_calls(
    call: Callable[[], T],
    *,
    repeat: int,
    warmup: int,
    before: Callable[[], object] | None = None,
    check: Callable[[T], None] | None = None,
) -> Timing:
    """Time `call` `repeat` times after `warmup` untimed runs; `before` and `check(result)` run untimed."""
    samples: list[int] = []
    for index in range(warmup + repeat):
        if before is not None:
            before()
        start = perf_counter_ns()
        result = call()
        elapsed = perf_counter_ns() - start
        if check is not None:
            check(result)
        if index >= warmup:
            samples.append(elapsed)
    return summarize(samples)


@dataclass(frozen=True)
class BenchRow:
    """One measure beside its baseline; `ratio` is baseline / ours (above 1: ours is better)."""

    key: str
    measure: str
    unit: str
    median: float
    p95: float | None
    baseline: str
    baseline_median: float
    baseline_p95: float | None
    samples: int
    baseline_samples: int
    goal: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.baseline_median / self.median if self.median > 0 else float("inf")

    @property
    def met(self) -> bool | None:
        return None if self.goal is None else self.median <= self.goal

    def cells(self) -> tuple[str, ...]:
        """measure, median, p95, baseline, baseline median, speed-up, goal, met."""
        met = "-" if self.met is None else ("yes" if self.met else "NO")
        return (
            self.measure,
            self._quantity(self.median),
            "-" if self.p95 is None else self._quantity(self.p95),
            self.baseline,
            self._quantity(self.baseline_median),
            f"{self.ratio:,.1f}x",
            "-" if self.goal is None else f"<= {self.goal:g} {self.unit}",
            met,
        )

    def _quantity(self, value: float) -> str:
        digits = 3 if self.unit == "ms" and value < 10 else 2 if self.unit == "s" else 1
        return f"{value:,.{digits}f} {self.unit}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "measure": self.measure,
            "unit": self.unit,
            "median": self.median,
            "p95": self.p95,
            "baseline": self.baseline,
            "baseline_median": self.baseline_median,
            "baseline_p95": self.baseline_p95,
            "ratio": self.ratio,
            "goal": self.goal,
            "met": self.met,
            "samples": self.samples,
            "baseline_samples": self.baseline_samples,
            "note": self.note,
        }


@dataclass(frozen=True)
class BenchReport:
    """Every row of one `envforge bench` run."""

    env_id: str
    package: str
    samples: int
    sessions: int
    rows: list[BenchRow] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "package": self.package,
            "samples": self.samples,
            "sessions": self.sessions,
            "rows": [row.as_dict() for row in self.rows],
        }


@dataclass(frozen=True)
class Probe:
    """A tool call the benchmark repeats, and the SQL it ran (bound values inlined) for the baseline."""

    tool: str
    arguments: dict[str, Any]
    outcome: str
    """`ok`, or the error code of a refused call."""
    repeatable: bool
    changes: bool = False
    """Whether a successful call changed the state's content (a no-op update does not)."""
    statements: tuple[str, ...] = ()

    @property
    def ok(self) -> bool:
        return self.outcome == "ok"


def run_bench(package: Path, *, sessions: int, repeat: int) -> BenchReport:
    """Measure reset, READ and WRITE calls, an MCP call and RSS with `sessions` live sessions."""
    package = package.resolve()
    env = load_environment(package)
    warmup = max(5, repeat // 10)
    read = capture_statements(env, find_read_probe(env))
    write = find_write_probe(env)
    rows: list[BenchRow] = []
    with tempfile.TemporaryDirectory(prefix="envforge-bench-") as scratch:
        database = Path(scratch) / "state.sqlite"
        template = package / "state.sqlite"
        rows.append(bench_reset(env, template, database, repeat=repeat, warmup=warmup))
        rows.append(bench_read(env, read, template, database, repeat=repeat, warmup=warmup))
        if write is not None:
            write = capture_statements(env, write)
            rows.append(bench_write(env, write, template, database, repeat=repeat, warmup=warmup))
    episodes = anyio.run(stdio_episodes, package, read, STDIO_EPISODES)
    rows.append(bench_mcp(env, read, episodes, repeat=repeat, warmup=warmup))
    rows.append(bench_memory(env, read, sessions, episodes))
    return BenchReport(env.env_id, str(package), repeat, sessions, rows)


# --- choosing calls -----------------------------------------------------------------------------


def sample_value(schema: dict[str, Any]) -> Any:
    """A plausible value for a JSON Schema: the first enum member, a small in-range number, a string."""
    if "enum" in schema:
        return schema["enum"][0]
    kind = schema.get("type")
    if kind in ("integer", "number"):
        value = min(max(5, schema.get("minimum", 5)), schema.get("maximum", 5))
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return True
    text = "bench@example.com"
    return text[: schema.get("maxLength", len(text))]


def _first_rows(session: Session, entity: str, limit: int) -> list[dict[str, Any]]:
    runtime = session.env.entities[entity]
    table = runtime.statements.table.name.replace('"', '""')
    key = runtime.key.replace('"', '""')
    cursor = session.connection.execute(f'SELECT * FROM "{table}" ORDER BY "{key}" LIMIT ?', (limit,))
    return [dict(row) for row in cursor]


def candidate_arguments(session: Session, tool: ToolSpec, limit: int = CANDIDATE_ROWS) -> Iterator[dict[str, Any]]:
    """Arguments built from the package's own rows: keys for references, row values for the tool's fields."""
    if tool.operation == "list":
        yield {}
        return
    properties: dict[str, Any] = tool.parameters.get("properties", {})
    required = list(tool.parameters.get("required", []))
    referenced = {name: _first_rows(session, entity, limit) for name, entity in tool.param_refs.items()}
    own = _first_rows(session, tool.entity, limit)
    for index in range(max(1, limit)):
        arguments: dict[str, Any] = {}
        for name in required:
            arguments[name] = _argument(session, tool, name, properties.get(name, {}), index, referenced, own)
        yield arguments


def _argument(
    session: Session,
    tool: ToolSpec,
    name: str,
    schema: dict[str, Any],
    index: int,
    referenced: dict[str, list[dict[str, Any]]],
    own: list[dict[str, Any]],
) -> Any:
    rows = referenced.get(name)
    if rows:
        return rows[index % len(rows)][session.env.entities[tool.param_refs[name]].key]
    if own and own[index % len(own)].get(name) is not None:
        return own[index % len(own)][name]
    return sample_value(schema)


def try_tool(env: Environment, tool: ToolSpec) -> Probe | None:
    """A candidate call of `tool` that succeeds (for a WRITE, one that changes the state if any does),
    else its most telling refusal, else None."""
    session = Session(env)
    initial = session.state_hash() if tool.kind == "write" else ""
    try:
        unchanged: Probe | None = None
        refusal: Probe | None = None
        for arguments in candidate_arguments(session, tool):
            ok, result = session.call_tool(tool.name, arguments)
            if ok:
                changes = tool.kind == "write" and session.state_hash() != initial
                probe = Probe(tool.name, arguments, "ok", _repeatable(session, tool.name, arguments), changes)
                session.reset()
                if changes or tool.kind == "read":
                    return probe
                unchanged = unchanged or probe
                continue
            code = str(result["error"]["code"])
            if code in REFUSALS_BY_PREFERENCE and (refusal is None or _preference(code) < _preference(refusal.outcome)):
                refusal = Probe(tool.name, arguments, code, repeatable=True)
        return unchanged or refusal
    finally:
        session.close()


def _preference(code: str) -> int:
    return REFUSALS_BY_PREFERENCE.index(code)


def _repeatable(session: Session, tool: str, arguments: dict[str, Any]) -> bool:
    return all(session.call_tool(tool, arguments)[0] for _ in range(REPEATABLE_CALLS - 1))


def find_read_probe(env: Environment) -> Probe:
    """A READ call that succeeds: a get by key if one works, else a find, else a listing."""
    reads = [tool for tool in env.toolgraph.tools if tool.kind == "read"]
    for operation in READ_OPERATIONS:
        for tool in reads:
            if tool.operation == operation:
                probe = try_tool(env, tool)
                if probe is not None and probe.ok:
                    return probe
    raise PackageError(f"{env.env_id}: no READ tool answered a call built from the package's rows")


def find_write_probe(env: Environment) -> Probe | None:
    """The best WRITE call in tool order: succeeds, changes the state, repeatable - in that order of weight.

    None when the environment has no WRITE tool, or none answered more than argument errors.
    """
    best: Probe | None = None
    for tool in env.toolgraph.tools:
        if tool.kind != "write":
            continue
        probe = try_tool(env, tool)
        if probe is not None and (best is None or _write_rank(probe) < _write_rank(best)):
            best = probe
            if _write_rank(best) == (0, 0, 0):
                break
    return best


def _write_rank(probe: Probe) -> tuple[int, int, int]:
    return (0 if probe.ok else 1, 0 if probe.changes else 1, 0 if probe.repeatable else 1)


def capture_statements(env: Environment, probe: Probe) -> Probe:
    """The probe with the SQL one call runs from the initial state, as the baseline replays it."""
    session = Session(env)
    statements: list[str] = []
    try:
        session.connection.set_trace_callback(statements.append)
        session.call_tool(probe.tool, probe.arguments)
    finally:
        session.connection.set_trace_callback(None)
        session.close()
    return replace(probe, statements=tuple(statements))


# --- reset and in-process calls -------------------------------------------------------------------


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
    return _row(
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
    return _row(
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
        # A write that succeeds only once must start each sample from the initial state again.
        before = None if probe.repeatable else session.reset
        ours = time_calls(
            lambda: session.call_tool(probe.tool, probe.arguments),
            repeat=repeat,
            warmup=warmup,
            before=before,
            check=lambda outcome: _expect(probe, outcome),
        )
    naive = NaiveDatabase(template, database)
    baseline = time_calls(lambda: naive.replay(probe.statements), repeat=repeat, warmup=warmup, before=naive.restore)
    return _row(
        "write",
        f"WRITE {probe.tool}" + ("" if probe.ok else f" (refused: {probe.outcome})"),
        ours,
        "connect + commit per call" if probe.ok else "connect per call",
        baseline,
        goal=CALL_GOAL_MS,
        note=_write_note(probe),
    )


def _expect(probe: Probe, outcome: tuple[bool, dict[str, Any]]) -> None:
    ok, result = outcome
    code = "ok" if ok else str(result["error"]["code"])
    if code != probe.outcome:
        raise EnvforgeError(f"{probe.tool} answered {code} during the benchmark, not {probe.outcome} as when chosen")


def _write_note(probe: Probe) -> str:
    if not probe.ok:
        outcome = f"refused with {probe.outcome} every time (no WRITE call succeeded), state unchanged"
    elif probe.repeatable:
        outcome = "succeeds every time, samples back to back on one session"
    else:
        outcome = "succeeds once per state, so the session is reset (untimed) before each sample"
    if probe.ok and not probe.changes:
        outcome += " (no WRITE call that changes the state was found; this one leaves content as it was)"
    return (
        f"Session.call_tool({probe.tool!r}, {probe.arguments!r}): {outcome}; "
        "baseline replays the same SQL on a restored on-disk copy and commits"
    )


def _row(
    key: str,
    measure: str,
    ours: Timing,
    baseline_label: str,
    baseline: Timing,
    *,
    goal: float | None,
    note: str,
) -> BenchRow:
    return BenchRow(
        key=key,
        measure=measure,
        unit="ms",
        median=ours.median,
        p95=ours.p95,
        baseline=baseline_label,
        baseline_median=baseline.median,
        baseline_p95=baseline.p95,
        samples=ours.samples,
        baseline_samples=baseline.samples,
        goal=goal,
        note=note,
    )


# --- MCP and memory -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Episodes:
    """Fresh-server-process episodes: each one's start + call time and the server's RSS after it."""

    times_ns: list[int]
    rss_bytes: list[int]


def serve_command(package: Path) -> list[str]:
    """`envforge serve PACKAGE --transport stdio` in this interpreter."""
    return [sys.executable, "-m", "envforge.cli.app", "serve", str(package), "--transport", "stdio"]


async def stdio_episodes(package: Path, probe: Probe, count: int) -> Episodes:
    """Start a server process per episode, call the probe once, and record time and the server's RSS."""
    times: list[int] = []
    rss: list[int] = []
    for _ in range(count):
        elapsed, resident = await _stdio_episode(package, probe)
        times.append(elapsed)
        rss.append(resident)
    return Episodes(times, rss)


async def _stdio_episode(package: Path, probe: Probe) -> tuple[int, int]:
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    command = serve_command(package)
    # The SDK passes only a safe subset of the environment; keep a source checkout importable.
    extra = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else None
    parameters = StdioServerParameters(command=command[0], args=command[1:], env=extra)
    known = {child.pid for child in psutil.Process().children(recursive=True)}
    async with AsyncExitStack() as stack:
        start = perf_counter_ns()
        client = await stack.enter_async_context(Client(parameters))
        result = await client.call_tool(probe.tool, probe.arguments)
        elapsed = perf_counter_ns() - start
        resident = _new_children_rss(known)
    if result.is_error:
        raise EnvforgeError(f"{package}: the stdio server refused {probe.tool}: {result.structured_content}")
    return elapsed, resident


def _new_children_rss(known: set[int]) -> int:
    total = 0
    for child in psutil.Process().children(recursive=True):
        if child.pid not in known:
            try:
                total += child.memory_info().rss
            except psutil.NoSuchProcess:
                continue
    return total


async def mcp_inprocess(env: Environment, probe: Probe, repeat: int, warmup: int) -> Timing:
    """One long-lived in-process client calling the probe in an explicit episode."""
    from mcp.client import Client

    server = EnvServer(env)
    meta = cast("RequestParamsMeta", {EPISODE_META_KEY: "bench"})
    samples: list[int] = []
    async with Client(server.server) as client:
        for index in range(warmup + repeat):
            start = perf_counter_ns()
            result = await client.call_tool(probe.tool, probe.arguments, meta=meta)
            elapsed = perf_counter_ns() - start
            if result.is_error:
                raise EnvforgeError(f"the in-process MCP server refused {probe.tool}: {result.structured_content}")
            if index >= warmup:
                samples.append(elapsed)
    for episode in list(server.episodes):
        server.close(episode)
    return summarize(samples)


def bench_mcp(env: Environment, probe: Probe, episodes: Episodes, *, repeat: int, warmup: int) -> BenchRow:
    ours = anyio.run(mcp_inprocess, env, probe, repeat, warmup)
    return _row(
        "mcp",
        f"MCP {probe.tool}",
        ours,
        "process per episode",
        summarize(episodes.times_ns),
        goal=None,
        note=(
            "one in-process mcp.Client, episode in _meta; baseline starts `envforge serve --transport stdio`, "
            "connects, calls once (timed to the answer, shutdown untimed)"
        ),
    )


def process_rss() -> int:
    return int(psutil.Process().memory_info().rss)


def live_sessions_rss(env: Environment, probe: Probe, count: int) -> tuple[int, int]:
    """(RSS before, RSS after) opening `count` sessions that have each served the probe once."""
    gc.collect()
    before = process_rss()
    live = [Session(env) for _ in range(count)]
    for session in live:
        session.call(probe.tool, probe.arguments)
    after = process_rss()
    for session in live:
        session.close()
    return before, after


def bench_memory(env: Environment, probe: Probe, sessions: int, episodes: Episodes) -> BenchRow:
    before, after = live_sessions_rss(env, probe, sessions)
    per_process = statistics.median(episodes.rss_bytes)
    per_session = (after - before) / sessions
    return BenchRow(
        key="rss",
        measure=f"RSS {sessions:,} sessions",
        unit="MB",
        median=after / MB,
        p95=None,
        baseline=f"1 process x{sessions:,} (extrapolated)",
        baseline_median=per_process * sessions / MB,
        baseline_p95=None,
        samples=1,
        baseline_samples=len(episodes.rss_bytes),
        goal=RSS_GOAL_MB if sessions == RSS_GOAL_SESSIONS else None,
        note=(
            f"whole process: {before / MB:,.1f} MB before the sessions, {per_session / 1e3:,.1f} kB per session "
            f"after one {probe.tool} call each; one fresh server process: {per_process / MB:,.1f} MB"
        ),
    )

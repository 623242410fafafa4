"""The WRITE row late in a long episode: the same call timed after 10,000 logged calls and in a fresh episode.

A WRITE must cost what it writes, not what the episode has logged before it. Both sessions are timed in turns, so
a busy machine slows both alike, and each sample starts where its episode stood: the write, and the calls logged
with it, are undone back to that point (untimed), so every sample writes from the same state onto a log of the
same length.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import closing
from time import perf_counter_ns

from envforge.bench.baselines import expect_outcome
from envforge.bench.calls import Probe
from envforge.bench.report import BenchRow, summarize, timed_row
from envforge.errors import EnvforgeError
from envforge.runtime.environment import Environment
from envforge.runtime.history import START, HistoryMark, history_mark, undo_history
from envforge.runtime.session import UNDO_LIMIT, Session

LONG_RUN_CALLS = 10_000
"""Calls an episode has logged before the late WRITE."""
SLOWER_AT_MOST = 1.1
"""The late WRITE's goal: at most 10 % slower than the fresh one (rounded up to 0.1 µs, as the table shows it)."""


def bench_long_run(
    env: Environment, read: Probe, write: Probe, *, repeat: int, warmup: int, calls: int = LONG_RUN_CALLS
) -> BenchRow:
    """`write` after `calls` logged READ calls (`read`, repeated untimed) beside `write` in a fresh episode."""
    with closing(Session(env)) as fresh, closing(Session(env)) as late:
        for _ in range(calls):
            late.call(read.tool, read.arguments)
        samples: tuple[list[int], list[int]] = ([], [])
        timers = (_timer(fresh, write, START), _timer(late, write, history_mark(late.connection)))
        for index in range(warmup + repeat):
            for timer, series in zip(timers, samples, strict=True):
                elapsed = timer()
                if index >= warmup:
                    series.append(elapsed)
    ours, baseline = summarize(samples[1]), summarize(samples[0])
    outcome = "succeeds" if write.ok else f"is refused ({write.outcome})"
    return timed_row(
        f"write@{calls}",
        f"WRITE {write.tool} after {calls:,} calls",
        ours,
        "same WRITE, fresh episode",
        baseline,
        goal=math.ceil(baseline.median * SLOWER_AT_MOST * 1e4) / 1e4,
        note=(
            f"Session.call_tool({write.tool!r}, {write.arguments!r}) {outcome} each time, after {calls:,} logged "
            f"{read.tool} calls; baseline: the same call in an episode that logged nothing; the two timed in turns, "
            f"each undone (untimed) before the next; goal: at most {SLOWER_AT_MOST - 1:.0%} slower"
        ),
    )


def _timer(session: Session, probe: Probe, mark: HistoryMark) -> Callable[[], int]:
    """Times one call of `probe` from `mark`, undoing it back to `mark` first."""
    connection, entities = session.connection, session.env.entities

    def timed() -> int:
        if not undo_history(connection, entities, UNDO_LIMIT, since=mark):
            raise EnvforgeError(f"{probe.tool}: the benchmark could not undo its call back to the episode's start")
        start = perf_counter_ns()
        outcome = session.call_tool(probe.tool, probe.arguments)
        elapsed = perf_counter_ns() - start
        expect_outcome(probe, outcome)
        return elapsed

    return timed

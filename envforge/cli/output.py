"""What the CLI prints: an outcome's tables and lines for people or its JSON for machines, and progress bars.

An outcome says everything itself, as plain strings (`display()`, see `envforge.ir.display`), and gives its JSON
(`as_dict()`); this module only draws them, the same way for every command.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column
from rich.table import Table as RichTable
from rich.text import Text

from envforge.cli.progress import BatchLines, Lines, item_lines
from envforge.pipeline.progress import watching

if TYPE_CHECKING:
    from envforge import executors
    from envforge.ir.display import Outcome, Table
    from envforge.pipeline.runner import StageResult
    from envforge.rollouts.trajectory import Trajectory
    from envforge.suite.report import BatchOutcome
    from envforge.validators.ui_replay import ReplayOutcome

console = Console(stderr=True)
stdout = Console()
STYLES = {"ok": "green", "FAILED": "bold red", "skipped": "yellow"}
"""The colour of a table cell that is a result word (a check's, a blueprint's in a batch)."""
T = TypeVar("T")
UNBOUNDED = 1_000_000
"""A width no table reaches: what a table is measured against when nothing fits it to a screen."""


@contextmanager
def _bar(
    label: str, total: int, describe: Callable[[T], str], *, enabled: bool = True
) -> Iterator[Callable[[T], None] | None]:
    """A transient bar on stderr, only on a terminal: description, bar, count, elapsed time. It gives what to call
    as each item finishes (the description becomes `describe(item)`), or None when nothing is shown."""
    if not (enabled and console.is_terminal):
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"))
    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)

        def advance(item: T) -> None:
            progress.update(task, advance=1, description=describe(item))

        yield advance


@contextmanager
def step_lines() -> Iterator[None]:
    """Off a terminal, a line on stderr as each step inside the block starts and ends, its items now and then,
    and a heartbeat (`envforge.cli.progress`); on a terminal, nothing."""
    if console.is_terminal:
        yield
        return
    lines = Lines()
    with watching(lines), lines.heartbeat():
        yield


@contextmanager
def stage_progress(*, enabled: bool) -> Iterator[Callable[[StageResult], None] | None]:
    """Progress over the pipeline's stages on stderr (stdout stays clean): a bar on a terminal (`enabled`: not
    under --json), lines otherwise."""
    from envforge.stages.registry import STAGES

    with step_lines(), _bar("generating", len(STAGES), _stage_done, enabled=enabled) as on_stage:
        yield on_stage


def _stage_done(result: StageResult) -> str:
    return f"{result.stage} {result.status}"


def batch_progress(*, enabled: bool) -> tuple[executors.Progress[BatchOutcome], Callable[[Path], None] | None]:
    """What a batch reports through: on a terminal a bar over the blueprints that names each as it finishes and
    counts the failures (`enabled`: not under --json); otherwise lines, each blueprint's start among them (the
    second value, for `batch_suite`'s `on_start`)."""
    if not console.is_terminal:
        lines = BatchLines()
        return lines, lines.started
    return partial(_batch_bar, enabled=enabled), None


def _batch_bar(total: int, *, enabled: bool) -> AbstractContextManager[Callable[[BatchOutcome], None] | None]:
    failed = 0

    def describe(outcome: BatchOutcome) -> str:
        nonlocal failed
        failed += not outcome.ok
        finished = f"{Path(outcome.blueprint).stem} {'ok' if outcome.ok else 'FAILED'}"
        return f"{finished} ({failed} failed)" if failed else finished

    return _bar("batch", total, describe, enabled=enabled)


def _passing_progress(
    label: str, total: int, passed: Callable[[T], bool]
) -> AbstractContextManager[Callable[[T], None] | None]:
    """A bar, or off a terminal lines, with the pass count so far."""
    count = 0

    def tally(item: T) -> str:
        nonlocal count
        count += passed(item)
        return f"{count} passed"

    if not console.is_terminal:
        return item_lines(label, total, lambda item: f"done, {tally(item)}")
    return _bar(label, total, lambda item: f"{label} ({tally(item)})")


def episode_progress(total: int) -> AbstractContextManager[Callable[[Trajectory], None] | None]:
    return _passing_progress("episodes", total, lambda trajectory: trajectory.outcome == "passed")


def replay_progress(total: int) -> AbstractContextManager[Callable[[ReplayOutcome], None] | None]:
    return _passing_progress("UI replays", total, lambda outcome: outcome.passed)


def print_outcome(outcome: Outcome, *, as_json: bool) -> None:
    """The outcome's JSON, or its heading, tables and lines; then on stderr its warnings and alarms either way."""
    shown = outcome.display()
    if as_json:
        sys.stdout.write(json.dumps(outcome.as_dict(), indent=2, sort_keys=True, default=str) + "\n")
    else:
        if shown.heading:
            stdout.print(Text(shown.heading, style="bold"), soft_wrap=True)
        for table in shown.tables:
            _print_table(_table(table))
        for line in shown.lines:
            stdout.print(Text(line), soft_wrap=True)
    for warning in shown.warnings:
        print(f"envforge: warning: {warning}", file=sys.stderr)
    for alarm in shown.alarms:
        console.print(Text(alarm, style="bold red"), soft_wrap=True)


def _print_table(table: RichTable) -> None:
    """On a terminal, fitted to its width (long cells fold); otherwise (a file, a pipe) at the table's own width,
    every cell whole on one line, for a reader or a program that splits the columns."""
    if stdout.is_terminal:
        stdout.print(table)
        return
    # Console.print caps its width at the console's (80 off a terminal), so a console as wide as the table draws it.
    width = stdout.measure(table, options=stdout.options.update_width(UNBOUNDED)).maximum
    Console(width=width).print(table)


def _table(table: Table) -> RichTable:
    """Every cell as plain text (never rich markup: a value may hold brackets), a result word in its colour."""
    drawn = RichTable(*(Column(Text(header), overflow="fold") for header in table.columns), title=Text(table.title))
    for row in table.rows:
        drawn.add_row(*(Text(cell, style=STYLES.get(cell, "")) for cell in row))
    return drawn


def announce(line: str) -> None:
    """A server's line for the user (its address, a token), at once on stderr: stdout may carry its protocol."""
    print(line, file=sys.stderr, flush=True)

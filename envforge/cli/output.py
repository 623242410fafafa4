"""What the CLI prints: an outcome's tables and lines for people or its JSON for machines, and progress bars.

An outcome says everything itself, as plain strings (`display()`, see `envforge.ir.display`), and gives its JSON
(`as_dict()`); this module only draws them, the same way for every command.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column
from rich.table import Table as RichTable
from rich.text import Text

if TYPE_CHECKING:
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


def stage_progress(*, enabled: bool) -> AbstractContextManager[Callable[[StageResult], None] | None]:
    """A progress bar over the pipeline's stages (on stderr, so stdout stays clean)."""
    from envforge.stages.registry import STAGES

    return _bar("generating", len(STAGES), lambda result: f"{result.stage} {result.status}", enabled=enabled)


def batch_progress(total: int, *, enabled: bool) -> AbstractContextManager[Callable[[BatchOutcome], None] | None]:
    """A bar over a batch's blueprints that names each as it finishes, and counts the failures."""
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
    """A bar with the pass count so far."""
    count = 0

    def describe(item: T) -> str:
        nonlocal count
        count += passed(item)
        return f"{label} ({count} passed)"

    return _bar(label, total, describe)


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
            stdout.print(_table(table))
        for line in shown.lines:
            stdout.print(Text(line), soft_wrap=True)
    for warning in shown.warnings:
        print(f"envforge: warning: {warning}", file=sys.stderr)
    for alarm in shown.alarms:
        console.print(Text(alarm, style="bold red"), soft_wrap=True)


def _table(table: Table) -> RichTable:
    """Every cell as plain text (never rich markup: a value may hold brackets), a result word in its colour."""
    drawn = RichTable(*(Column(Text(header), overflow="fold") for header in table.columns), title=Text(table.title))
    for row in table.rows:
        drawn.add_row(*(Text(cell, style=STYLES.get(cell, "")) for cell in row))
    return drawn


def announce(line: str) -> None:
    """A server's line for the user (its address, a token), at once on stderr: stdout may carry its protocol."""
    print(line, file=sys.stderr, flush=True)

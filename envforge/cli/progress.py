"""Progress as lines on stderr, for when stderr is not a terminal (a log file, CI, a pipe) and a bar would show
nothing: a line as each step starts and as it ends with its time, the count of its items at each tenth of the
way (at most one such line per 5 s), and a heartbeat every ENVFORGE_HEARTBEAT_S seconds (default 10) while a step runs, so that a slow step can
be told from a hung one. On a terminal `output.py` draws bars instead.

The heartbeat is a daemon thread that the block which starts it stops and joins on the way out, so no line
follows what the command prints next.
"""

from __future__ import annotations

import math
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from envforge.errors import UserInputError

if TYPE_CHECKING:
    from envforge.suite.report import BatchOutcome

PREFIX = "[envforge]"
HEARTBEAT_VARIABLE = "ENVFORGE_HEARTBEAT_S"
HEARTBEAT_S = 10.0
ITEMS_EVERY_S = 5.0
"""The least time between two lines on a step's items (each a new tenth of them done)."""
T = TypeVar("T")


def heartbeat_interval() -> float:
    """Seconds between heartbeats: ENVFORGE_HEARTBEAT_S, or 10."""
    text = os.environ.get(HEARTBEAT_VARIABLE, "").strip()
    if not text:
        return HEARTBEAT_S
    try:
        seconds = float(text)
    except ValueError:
        seconds = math.nan
    if not 0 < seconds < math.inf:
        raise UserInputError(
            f"{HEARTBEAT_VARIABLE}={text!r} is not a number of seconds above 0; unset it for {HEARTBEAT_S:g} s"
        )
    return seconds


def duration(seconds: float) -> str:
    """`12.3 s` under a minute, `2 min 48 s` above."""
    if seconds < 60:
        return f"{seconds:.1f} s"
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest:02d} s"


@dataclass
class _Running:
    started: float
    shown_at: float
    """When the step's last line was printed."""
    items: str = ""
    """`57/150 accepted`: the step's last count of items, printed or not."""
    shown_tenth: int = 0


class Lines:
    """The progress lines of one command: a `envforge.pipeline.progress.Watcher` that prints each step and its
    items, and the heartbeat over the steps running."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, _Running] = {}

    def _say(self, text: str) -> None:
        print(f"{PREFIX} {text}", file=sys.stderr, flush=True)

    def started(self, step: str) -> None:
        with self._lock:
            now = time.monotonic()
            self._running[step] = _Running(now, now)
            self._say(f"{step}: started")

    def advanced(self, step: str, done: int, total: int, unit: str, *, shown: bool = True) -> None:
        """Count the step's items; print the count when a new tenth of them is done at least 5 s after its last
        line (so a step of a few seconds prints none), unless not `shown` (the heartbeat still tells it)."""
        with self._lock:
            running = self._running.get(step)
            if running is None:
                return
            running.items = f"{done}/{total} {unit}"
            now = time.monotonic()
            tenth = done * 10 // max(total, 1)
            if shown and done < total and tenth > running.shown_tenth and now - running.shown_at >= ITEMS_EVERY_S:
                running.shown_tenth, running.shown_at = tenth, now
                self._say(f"{step}: {running.items}")

    def finished(self, step: str, outcome: str, seconds: float, *, detail: str = "") -> None:
        """The step's end: its outcome, its time, then `detail` or else its last count of items."""
        with self._lock:
            running = self._running.pop(step, None)
            detail = detail or (running.items if running is not None else "")
            self._say(f"{step}: {outcome} in {duration(seconds)}" + (f", {detail}" if detail else ""))

    def beat(self) -> None:
        """A line on the first step still running (its time, its items) naming the others with their times."""
        with self._lock:
            if not self._running:
                return
            now = time.monotonic()
            (name, first), *others = self._running.items()
            line = f"{name}: still running, {duration(now - first.started)}"
            line += f", {first.items}" if first.items else ""
            if others:
                line += "; running " + ", ".join(f"{other} {duration(now - run.started)}" for other, run in others)
            self._say(line)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        """The block as the step `name`: its start and end (`failed` when it raises)."""
        started = time.monotonic()
        self.started(name)
        outcome = "failed"
        try:
            yield
            outcome = "done"
        finally:
            self.finished(name, outcome, time.monotonic() - started)

    @contextmanager
    def heartbeat(self) -> Iterator[None]:
        """Beat every `heartbeat_interval()` seconds while the block runs; stopped and joined when it ends."""
        interval = heartbeat_interval()
        stop = threading.Event()

        def beat() -> None:
            while not stop.wait(interval):
                self.beat()

        thread = threading.Thread(target=beat, name="envforge-heartbeat", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stop.set()
            thread.join()


@contextmanager
def item_lines(step: str, total: int, unit: Callable[[T], str]) -> Iterator[Callable[[T], None]]:
    """Lines over `total` items as one step (episodes, UI replays), with a heartbeat; gives what to call as each
    item finishes, `unit(item)` saying what the count is of (`done, 5 passed`)."""
    lines = Lines()
    done = 0

    def advance(item: T) -> None:
        nonlocal done
        done += 1
        lines.advanced(step, done, total, unit(item))

    with lines.heartbeat(), lines.step(step):
        yield advance


class BatchLines:
    """A batch's lines: each blueprint as it starts and ends, then how many of them are done, and a heartbeat
    naming those running. Called with the number of blueprints it is the batch's `executors.Progress`;
    `started` is what the batch calls as a blueprint starts. The batch's own first line waits for its first
    blueprint, so that a batch refused before any starts (a bad --address) prints only its error."""

    def __init__(self) -> None:
        self._lines = Lines()
        self._total = 0
        self._since: float | None = None

    def started(self, blueprint: Path) -> None:
        if self._since is None:
            self._since = time.monotonic()
            self._lines.started("batch")
            self._lines.advanced("batch", 0, self._total, "blueprints done", shown=False)
        self._lines.started(blueprint.stem)

    @contextmanager
    def __call__(self, total: int) -> Iterator[Callable[[BatchOutcome], None]]:
        self._total, self._since = total, None
        done = 0

        def advance(outcome: BatchOutcome) -> None:
            nonlocal done
            done += 1
            word = "ok" if outcome.ok else "FAILED"
            self._lines.finished(Path(outcome.blueprint).stem, word, outcome.seconds, detail=f"{done}/{total} done")
            self._lines.advanced("batch", done, total, "blueprints done", shown=False)

        outcome = "failed"
        with self._lines.heartbeat():
            try:
                yield advance
                outcome = "done"
            finally:
                if self._since is not None:
                    self._lines.finished("batch", outcome, time.monotonic() - self._since)

"""How long work says where it is, without printing: the step it is in (started, then its outcome and time), and
how many of that step's items are done, told to whoever watches the run (the command line's progress lines).

The watcher is a context variable its caller sets (`watching`), so a stage or a bench row reports through it
without every function on the way taking a callback; with none set, reporting costs a lookup.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Protocol


class Watcher(Protocol):
    """Who hears of each step: as it starts, as its items finish, and as it ends."""

    def started(self, step: str) -> None: ...

    def advanced(self, step: str, done: int, total: int, unit: str) -> None: ...

    def finished(self, step: str, outcome: str, seconds: float) -> None: ...


_watcher: ContextVar[Watcher | None] = ContextVar("envforge_watcher", default=None)
_step: ContextVar[str | None] = ContextVar("envforge_step", default=None)


@contextmanager
def watching(watcher: Watcher) -> Iterator[None]:
    """Tell `watcher` of every step run inside the block (in this thread)."""
    token = _watcher.set(watcher)
    try:
        yield
    finally:
        _watcher.reset(token)


@dataclass
class Step:
    """A running step; what it sets as `outcome` (e.g. `cached`) is the word its end is told with."""

    name: str
    outcome: str = "done"


@contextmanager
def step(name: str) -> Iterator[Step]:
    """Run the block as the step `name`: the watcher hears it start, its `advance`s, and its end (`failed` when
    the block raises)."""
    watcher = _watcher.get()
    current = Step(name)
    token = _step.set(name)
    started = time.perf_counter()
    if watcher is not None:
        watcher.started(name)
    try:
        yield current
    except BaseException:
        current.outcome = "failed"
        raise
    finally:
        _step.reset(token)
        if watcher is not None:
            watcher.finished(name, current.outcome, time.perf_counter() - started)


def advance(done: int, total: int, unit: str) -> None:
    """`done` of the current step's `total` items are finished (`unit` says of what: `accepted`, `posed`)."""
    watcher, name = _watcher.get(), _step.get()
    if watcher is not None and name is not None:
        watcher.advanced(name, done, total, unit)

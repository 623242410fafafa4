"""Where long work runs (a local process pool, or Ray tasks), the Ray that batches and rollouts share, how such
work reports its progress without printing, and whether it may take a second core."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from contextlib import AbstractContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, TypeVar

from envforge.errors import UserInputError

if TYPE_CHECKING:
    from types import ModuleType

ExecutorKind = Literal["local", "ray"]
RAY_INSTALL = "pip install 'envforge[ray]'"
PR_SET_PDEATHSIG = 1
"""From <linux/prctl.h>: the signal a process gets when the thread that started it ends."""
SPARE_CORES = 0.5
"""Idle cores (the count less the load average) from which work may take a second core."""

Result = TypeVar("Result")
Item = TypeVar("Item")

Progress: TypeAlias = Callable[[int], AbstractContextManager[Callable[[Item], None] | None]]
"""Opens a display of progress over a number of items and gives what to call as each one finishes, or None when
nothing is shown. Library code takes one from its caller (the CLI's bars) and never prints."""


def no_progress(total: int) -> nullcontext[None]:
    """The `Progress` that shows nothing."""
    return nullcontext()


def import_ray() -> ModuleType:
    """Ray, or a user error naming the extra that installs it."""
    try:
        import ray
    except ImportError:
        raise UserInputError(f"--executor ray needs Ray, which is not installed: {RAY_INSTALL}") from None
    return ray


def connect_ray(ray: ModuleType, address: str) -> None:
    """Join the cluster at `address`, or a user error that says which addresses work."""
    try:
        ray.init(address=address)
    except (ConnectionError, ValueError) as exc:
        raise UserInputError(
            f"--address {address}: {exc}; give the address `ray start --head` printed (HOST:6379), "
            "or `auto` on a node of a running cluster"
        ) from None


def start_local_ray(ray: ModuleType) -> None:
    """Ray on this machine with every core and no dashboard."""
    ray.init(num_cpus=os.cpu_count() or 1, include_dashboard=False)


def die_with_parent(parent: int) -> None:
    """A pool worker's first step: end when the process that started it ends, even by kill -9.

    Without it a killed batch leaves its workers running: they finish the call in hand and the queued ones,
    writing packages nobody waits for beside the rerun that resumes them, and never exit. Linux only; elsewhere
    the workers stay orphans.
    """
    if sys.platform.startswith("linux"):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)


_sharing: ContextVar[bool] = ContextVar("envforge_sharing_cores", default=False)


def usable_cores() -> int:
    """The cores this process may run on: its CPU affinity where the system tells it, else the machine's count."""
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def second_core() -> bool:
    """Whether this process may run on a second core that no other work of this thread's run already keeps busy
    (`sharing_cores`)."""
    return not _sharing.get() and usable_cores() >= 2


def spare_core() -> bool:
    """Whether a second process of the caller's work would find a core idle: `second_core()`, and the load average
    leaves at least SPARE_CORES of the cores idle."""
    if not second_core():
        return False
    try:
        idle = usable_cores() - os.getloadavg()[0]
    except OSError:  # no load average on this system
        return False
    return idle >= SPARE_CORES


@contextmanager
def sharing_cores() -> Iterator[None]:
    """Inside the block (in this thread, and in threads run in a copy of its context), two pieces of work of one
    run keep both cores busy, so neither finds a second one."""
    token = _sharing.set(True)
    try:
        yield
    finally:
        _sharing.reset(token)


@contextmanager
def ray_session(address: str | None) -> Iterator[ModuleType]:
    """Ray, ready for work, and shut down after only if this started it.

    A Ray already initialised in this process (a test's, a notebook's) is used as it is and left running;
    otherwise this connects to `address`, or starts a local Ray with every core.
    """
    ray = import_ray()
    started = not ray.is_initialized()
    if started:
        if address:
            connect_ray(ray, address)
        else:
            start_local_ray(ray)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def run_local(
    function: Callable[..., Result],
    calls: Sequence[tuple[Any, ...]],
    *,
    workers: int,
    on_start: Callable[[int], None] | None = None,
) -> Iterator[tuple[int, Result | BaseException]]:
    """(index of the call, its result or the exception it raised), in the order the calls finish.

    A call is handed to the pool only when a worker is free for it, so `on_start(index)` is called as it starts.
    """
    width = max(1, min(workers, len(calls)))
    with ProcessPoolExecutor(max_workers=width, initializer=die_with_parent, initargs=(os.getpid(),)) as pool:
        queued = iter(enumerate(calls))
        running: dict[Future[Result], int] = {}

        def submit_next() -> None:
            entry = next(queued, None)
            if entry is None:
                return
            index, args = entry
            if on_start is not None:
                on_start(index)
            try:
                future = pool.submit(function, *args)
            except BrokenProcessPool as exc:  # a worker died (killed, out of memory): the pool takes no more calls
                future = Future()
                future.set_exception(exc)
            running[future] = index

        for _ in range(width):
            submit_next()
        while running:
            done, _ = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                index = running.pop(future)
                try:
                    yield index, future.result()
                except Exception as exc:
                    yield index, exc
                submit_next()


def run_ray(
    function: Callable[..., Result],
    calls: Sequence[tuple[Any, ...]],
    *,
    address: str | None,
    on_start: Callable[[int], None] | None = None,
) -> Iterator[tuple[int, Result | BaseException]]:
    """Each call as a Ray task of one CPU on `ray_session(address)`'s Ray, yielded as it finishes like `run_local`;
    `on_start(index)` as each is handed to Ray, whose scheduler starts it when a CPU is free."""
    with ray_session(address) as ray:
        remote = ray.remote(num_cpus=1)(function)
        pending = {}
        for index, args in enumerate(calls):
            if on_start is not None:
                on_start(index)
            pending[remote.remote(*args)] = index
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                index = pending.pop(ref)
                try:
                    yield index, ray.get(ref)
                except Exception as exc:
                    yield index, exc

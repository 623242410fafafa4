"""Where `envforge batch` runs its calls (a local process pool, or Ray tasks), and the Ray that rollouts use."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from envforge.errors import UserInputError

if TYPE_CHECKING:
    from types import ModuleType

ExecutorKind = Literal["local", "ray"]
RAY_INSTALL = "pip install 'envforge[ray]'"

Result = TypeVar("Result")


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
            ray.init(num_cpus=os.cpu_count() or 1, include_dashboard=False)
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def run_local(
    function: Callable[..., Result], calls: Sequence[tuple[Any, ...]], *, workers: int
) -> Iterator[tuple[int, Result | BaseException]]:
    """(index of the call, its result or the exception it raised), in the order the calls finish."""
    with ProcessPoolExecutor(max_workers=max(1, min(workers, len(calls)))) as pool:
        futures: dict[Future[Result], int] = {pool.submit(function, *args): index for index, args in enumerate(calls)}
        for future in as_completed(futures):
            try:
                yield futures[future], future.result()
            except Exception as exc:
                yield futures[future], exc


def run_ray(
    function: Callable[..., Result], calls: Sequence[tuple[Any, ...]], *, address: str | None
) -> Iterator[tuple[int, Result | BaseException]]:
    """Each call as a Ray task of one CPU on `ray_session(address)`'s Ray, yielded as it finishes like `run_local`."""
    with ray_session(address) as ray:
        remote = ray.remote(num_cpus=1)(function)
        pending = {remote.remote(*args): index for index, args in enumerate(calls)}
        while pending:
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                index = pending.pop(ref)
                try:
                    yield index, ray.get(ref)
                except Exception as exc:
                    yield index, exc

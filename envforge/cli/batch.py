"""`envforge batch`: many blueprints in a process pool or on Ray, each failure contained."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from envforge.cli.executors import ExecutorKind, run_local, run_ray
from envforge.cli.output import batch_progress
from envforge.errors import EnvforgeError, UserInputError


@dataclass(frozen=True)
class BatchOutcome:
    blueprint: str
    ok: bool
    seconds: float
    env_id: str = ""
    package: str = ""
    package_hash: str = ""
    error: str = ""
    user_error: bool = False
    tasks: int = 0
    """Tasks the package ships."""
    stages_built: int = 0
    stages_cached: int = 0
    """Stages this run built, and those it took from the stage cache (a resumed or repeated run)."""


def generate_one(path: Path, out: Path, seed: int, rows: int, tasks: int) -> BatchOutcome:
    """Generate one package; every error becomes an outcome, never an exception."""
    from envforge.ir.manifest import MANIFEST, load_manifest
    from envforge.pipeline.dag import GenerateConfig
    from envforge.stages.generate import run_pipeline

    started = time.perf_counter()
    try:
        result = run_pipeline(path, out, GenerateConfig(seed=seed, rows=rows, tasks=tasks))
    except EnvforgeError as exc:
        return BatchOutcome(
            str(path),
            False,
            time.perf_counter() - started,
            error=str(exc),
            user_error=isinstance(exc, UserInputError),
        )
    except Exception as exc:
        return BatchOutcome(str(path), False, time.perf_counter() - started, error=f"{type(exc).__name__}: {exc}")
    manifest = load_manifest((result.package / MANIFEST).read_bytes())
    cached = sum(stage.status == "cached" for stage in result.stages)
    return BatchOutcome(
        str(path),
        True,
        time.perf_counter() - started,
        env_id=result.env_id,
        package=str(result.package),
        package_hash=result.package_hash,
        tasks=manifest.stats["tasks"],
        stages_built=len(result.stages) - cached,
        stages_cached=cached,
    )


def run_batch(
    paths: list[Path],
    out: Path,
    *,
    seed: int,
    rows: int,
    tasks: int,
    workers: int,
    progress: bool,
    executor: ExecutorKind = "local",
    address: str | None = None,
) -> list[BatchOutcome]:
    """Outcomes in the order of `paths`. Rerunning resumes: finished stages come from the cache."""
    if address is not None:
        # Workers on other machines have working directories of their own, so they get absolute paths; abspath,
        # not resolve, because a shared file system may be mounted through links that differ between nodes.
        paths, out = [Path(os.path.abspath(path)) for path in paths], Path(os.path.abspath(out))
    calls = [(path, out, seed, rows, tasks) for path in paths]
    finished = (
        run_ray(generate_one, calls, address=address)
        if executor == "ray"
        else run_local(generate_one, calls, workers=workers)
    )
    outcomes: dict[int, BatchOutcome] = {}
    with batch_progress(len(paths), enabled=progress) as advance:
        for index, result in finished:
            outcomes[index] = (
                BatchOutcome(str(paths[index]), False, 0.0, error=f"worker failed: {result}")
                if isinstance(result, BaseException)
                else result
            )
            if advance is not None:
                advance(outcomes[index])
    return [outcomes[index] for index in range(len(paths))]

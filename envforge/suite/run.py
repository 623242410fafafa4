"""Many blueprints in a process pool or on Ray, each failure contained, and the batch's report saved."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from envforge.errors import EnvforgeError, UserInputError
from envforge.executors import Progress, import_ray, no_progress, run_local, run_ray
from envforge.files import clean_leftovers, dump_json, write_file_atomic
from envforge.suite.blueprints import check_distinct, resolve_suite
from envforge.suite.report import SUITE_JSON, BatchOutcome, SuiteReport
from envforge.suite.settings import BatchSettings


def generate_one(path: Path, out: Path, seed: int, rows: int, tasks: int, max_rows: int) -> BatchOutcome:
    """Generate one package; every error becomes an outcome, never an exception."""
    from envforge.ir.manifest import MANIFEST, load_manifest
    from envforge.pipeline.dag import GenerateConfig
    from envforge.stages.generate import run_pipeline

    started = time.perf_counter()
    try:
        result = run_pipeline(path, out, GenerateConfig(seed=seed, rows=rows, tasks=tasks, max_rows=max_rows))
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
    settings: BatchSettings,
    progress: Progress[BatchOutcome] | None = None,
    on_start: Callable[[Path], None] | None = None,
) -> list[BatchOutcome]:
    """Outcomes in the order of `paths`, `on_start(path)` as each blueprint starts. Rerunning resumes: finished
    stages come from the cache."""
    if settings.address is not None:
        # Workers on other machines have working directories of their own, so they get absolute paths; abspath,
        # not resolve, because a shared file system may be mounted through links that differ between nodes.
        paths, out = [Path(os.path.abspath(path)) for path in paths], Path(os.path.abspath(out))
    calls = [(path, out, settings.seed, settings.rows, settings.tasks, settings.max_rows) for path in paths]
    starting = None if on_start is None else (lambda index: on_start(paths[index]))
    finished = (
        run_ray(generate_one, calls, address=settings.address, on_start=starting)
        if settings.executor == "ray"
        else run_local(generate_one, calls, workers=settings.workers, on_start=starting)
    )
    outcomes: dict[int, BatchOutcome] = {}
    with (progress or no_progress)(len(paths)) as advance:
        for index, result in finished:
            outcomes[index] = (
                BatchOutcome(str(paths[index]), False, 0.0, error=f"worker failed: {result}")
                if isinstance(result, BaseException)
                else result
            )
            if advance is not None:
                advance(outcomes[index])
    return [outcomes[index] for index in range(len(paths))]


def run_suite(
    paths: list[Path],
    out: Path,
    settings: BatchSettings,
    progress: Progress[BatchOutcome] | None = None,
    on_start: Callable[[Path], None] | None = None,
) -> SuiteReport:
    """`run_batch`, then its report saved as `out/suite.json`: a reader sees the last finished batch's report
    whole, never a partial one, and a killed batch leaves the one before it."""
    clean_leftovers(out, SUITE_JSON)
    started = time.perf_counter()
    outcomes = run_batch(paths, out, settings, progress, on_start)
    report = SuiteReport(
        outcomes,
        out,
        settings.executor,
        settings.workers if settings.executor == "local" else None,
        settings.seed,
        settings.rows,
        settings.tasks,
        time.perf_counter() - started,
    )
    write_file_atomic(report.path, dump_json(report.as_dict()))
    return report


def batch_suite(
    blueprints: Sequence[str],
    out: Path,
    settings: BatchSettings,
    progress: Progress[BatchOutcome] | None = None,
    on_start: Callable[[Path], None] | None = None,
) -> SuiteReport:
    """The packages of blueprint files, shipped names, folders and list files (`@suite.txt`), each named once
    (`envforge batch`), into `out` with its suite.json; `on_start(path)` as each blueprint starts."""
    if settings.executor == "ray":
        import_ray()
    entries = resolve_suite(list(blueprints))
    check_distinct(entries, out)
    return run_suite([entry.path for entry in entries], out, settings, progress, on_start)

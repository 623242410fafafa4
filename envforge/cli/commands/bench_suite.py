"""`envforge bench-suite`: a suite's batch throughput under each executor, against the first, in one run."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated, cast

import typer

from envforge.cli.options import AsJson, Rows, Seed, Tasks
from envforge.errors import EnvforgeError, UserInputError, did_you_mean

EXECUTORS = ("local", "ray")


def bench_suite(
    blueprints: Annotated[
        list[str],
        typer.Argument(help="Blueprint files, shipped names, folders or list files, as `envforge batch` takes them."),
    ],
    executors: Annotated[
        str,
        typer.Option("--executors", help="Executors to compare, comma-separated; the first is the baseline."),
    ] = "local,ray",
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Processes of the local pool.")] = 2,
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    repeat: Annotated[int, typer.Option("--repeat", min=1, max=100, help="Cold batches per executor.")] = 3,
    as_json: AsJson = False,
) -> None:
    """Run one batch with each executor into fresh folders --repeat times: median packages/hour and tasks/s,
    the ratio to the first executor, and a check that every executor wrote the same packages (exit 1 if not)."""
    from envforge.cli.output import batch_progress, print_suite_bench
    from envforge.executors import RAY_INSTALL, ExecutorKind, import_ray
    from envforge.suite.blueprints import check_distinct, resolve_suite
    from envforge.suite.throughput import run_suite_bench

    kinds = [part.strip() for part in executors.split(",") if part.strip()]
    for kind in kinds:
        if kind not in EXECUTORS:
            hint = did_you_mean(kind, EXECUTORS) or f"; executors: {', '.join(EXECUTORS)}"
            raise UserInputError(f"--executors: unknown executor '{kind}'{hint}")
    if not kinds or len(set(kinds)) < len(kinds):
        raise UserInputError(f"--executors {executors}: name each of {', '.join(EXECUTORS)} at most once")
    if "ray" in kinds:
        try:
            import_ray()
        except UserInputError:
            raise UserInputError(
                f"--executors {executors}: ray needs Ray, which is not installed: {RAY_INSTALL} "
                "(or compare without it: --executors local)"
            ) from None
    entries = resolve_suite(blueprints)
    check_distinct(entries, Path("OUT"))
    report = run_suite_bench(
        [entry.path for entry in entries],
        [cast("ExecutorKind", kind) for kind in kinds],
        workers=workers,
        seed=seed,
        rows=rows,
        tasks=tasks,
        repeat=repeat,
        progress=partial(batch_progress, enabled=not as_json),
    )
    print_suite_bench(report, as_json=as_json)
    if report.mismatches:
        raise EnvforgeError(
            f"package hashes differ between the batches (see the {len(report.mismatches)} HASH MISMATCH lines): "
            "generation is not deterministic across executors; report it with those lines"
        )

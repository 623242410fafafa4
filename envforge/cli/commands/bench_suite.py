"""`envforge bench-suite`: a suite's batch throughput under each executor, against the first, in one run."""

from __future__ import annotations

from functools import partial
from typing import Annotated

import typer

from envforge.cli.options import AsJson, Rows, Seed, Tasks
from envforge.errors import EnvforgeError


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
    from envforge.suite.throughput import parse_executors, run_suite_bench

    report = run_suite_bench(
        blueprints,
        parse_executors(executors),
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

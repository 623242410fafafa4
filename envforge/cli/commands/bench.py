"""Measurements: the runtime's costs against naive baselines, a served model's rollouts or an app (`bench`), and
a suite's batch throughput under each executor against the first (`bench-suite`)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from envforge.bench.options import BenchOptions
from envforge.cli.options import AppKind, AsJson, Package, Rows, Seed, Tasks, with_options

BENCH_OPTIONS: dict[str, Any] = {
    "sessions": Annotated[
        int, typer.Option("--sessions", min=1, max=100_000, help="Live sessions for the memory figure.")
    ],
    "repeat": Annotated[int, typer.Option("--repeat", min=5, max=100_000, help="Samples per timing.")],
    "generation": Annotated[
        bool, typer.Option("--generate/--no-generate", help="Also time generating the package (3 cold builds).")
    ],
    "base_url": Annotated[
        str | None, typer.Option("--base-url", help="Measure rollouts against this served model instead (see --model).")
    ],
    "model": Annotated[str | None, typer.Option("--model", help="Model name for --base-url.")],
    "concurrency": Annotated[
        str,
        typer.Option("--concurrency", help="Rollout concurrency levels, comma-separated; the first is the baseline."),
    ],
    "episodes": Annotated[
        int, typer.Option("--episodes", min=1, help="Rollout episodes per level (at least the level).")
    ],
    "app": Annotated[
        AppKind | None, typer.Option("--app", help="Measure the web or phone app instead: cold start, reset, memory.")
    ],
    "sizes": Annotated[
        str,
        typer.Option(
            "--sizes",
            help="Total rows of the domains the verify and gate rows rebuild in memory, comma-separated "
            "(the full sweep: 1000,10000,100000).",
        ),
    ],
    "scale_tasks": Annotated[
        int,
        typer.Option(
            "--scale-tasks", min=1, max=1000, help="Tasks synthesized and gated for synthesis and at each of --sizes."
        ),
    ],
}
"""The option of each field of `BenchOptions`."""


@with_options(BenchOptions, BENCH_OPTIONS)
def bench(package: Package, options: BenchOptions, as_json: AsJson = False) -> None:
    """Measure reset, tool calls, MCP calls, memory, verification and task synthesis, each against a naive baseline in the same run, in under a minute; the full sweep (minutes) adds --sizes 1000,10000,100000 --generate. With --base-url, rollout overhead and throughput instead."""
    from envforge.bench.modes import bench_package
    from envforge.cli.output import print_outcome, step_lines

    with step_lines():
        report = bench_package(package, options)
    print_outcome(report, as_json=as_json)


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
    from envforge.cli.output import batch_progress, print_outcome
    from envforge.suite.throughput import parse_executors, run_suite_bench

    report = run_suite_bench(
        blueprints,
        parse_executors(executors),
        workers=workers,
        seed=seed,
        rows=rows,
        tasks=tasks,
        repeat=repeat,
        progress=batch_progress(enabled=not as_json)[0],
    )
    print_outcome(report, as_json=as_json)
    report.check_agreement()

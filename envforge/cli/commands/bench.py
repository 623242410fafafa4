"""`envforge bench`: the runtime's costs against naive baselines, a served model's rollouts, or an app."""

from __future__ import annotations

from typing import Annotated

import typer

from envforge.bench.sizes import DEFAULT_SIZES, SCALE_TASKS
from envforge.cli.options import AppKind, AsJson, Package
from envforge.errors import UserInputError


def bench(
    package: Package,
    sessions: Annotated[
        int, typer.Option("--sessions", min=1, max=100_000, help="Live sessions for the memory figure.")
    ] = 1000,
    repeat: Annotated[int, typer.Option("--repeat", min=5, max=100_000, help="Samples per timing.")] = 300,
    generation: Annotated[
        bool, typer.Option("--generate/--no-generate", help="Also time generating the package.")
    ] = True,
    base_url: Annotated[
        str | None,
        typer.Option("--base-url", help="Measure rollouts against this served model instead (see --model)."),
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name for --base-url.")] = None,
    concurrency: Annotated[
        str,
        typer.Option("--concurrency", help="Rollout concurrency levels, comma-separated; the first is the baseline."),
    ] = "1,8,32",
    episodes: Annotated[
        int, typer.Option("--episodes", min=1, help="Rollout episodes per level (at least the level).")
    ] = 8,
    app_kind: Annotated[
        AppKind | None, typer.Option("--app", help="Measure the web or phone app instead: cold start, reset, memory.")
    ] = None,
    sizes: Annotated[
        str,
        typer.Option(
            "--sizes", help="Total rows of the domains the verify and gate rows rebuild in memory, comma-separated."
        ),
    ] = DEFAULT_SIZES,
    scale_tasks: Annotated[
        int, typer.Option("--scale-tasks", min=1, max=1000, help="Tasks synthesized and gated at each of --sizes.")
    ] = SCALE_TASKS,
    as_json: AsJson = False,
) -> None:
    """Measure generation, task synthesis, verification, reset, tool calls, MCP calls and memory, each against a naive baseline in the same run; with --base-url, rollout overhead and throughput instead."""

    from envforge.bench.generate import bench_generate
    from envforge.bench.runtime import run_bench
    from envforge.bench.sizes import parse_sizes
    from envforge.cli.output import print_bench
    from envforge.runtime.opened_package import open_package

    if app_kind is not None:
        from envforge.bench.apps import bench_apps
        from envforge.bench.report import BenchReport
        from envforge.runtime.episode import load_package

        loaded = load_package(open_package(package.resolve()))
        rows = bench_apps(loaded, app_kind, repeat=max(3, min(repeat, 10)))
        env_id = loaded.env_id
        print_bench(BenchReport(env_id, str(package.resolve()), repeat, 0, rows), as_json=as_json)
        return
    if base_url is not None:
        from envforge.bench.report import BenchReport
        from envforge.bench.rollouts import bench_rollouts
        from envforge.runtime.episode import load_package

        if model is None:
            raise UserInputError("--base-url needs --model: the name the endpoint serves")
        try:
            levels = [int(part) for part in concurrency.split(",") if part.strip()]
        except ValueError:
            levels = []
        if not levels or min(levels) < 1:
            raise UserInputError(f"--concurrency: '{concurrency}' is not a comma-separated list of positive integers")
        loaded = load_package(open_package(package))
        rows = bench_rollouts(loaded, base_url, model, concurrencies=levels, episodes=episodes)
        env_id = loaded.env_id
        print_bench(BenchReport(env_id, str(package.resolve()), episodes, 0, rows), as_json=as_json)
        return
    row_counts = parse_sizes(sizes)
    opened = open_package(package.resolve())
    report = run_bench(opened, sessions=sessions, repeat=repeat, sizes=row_counts, scale_tasks=scale_tasks)
    if generation:
        report.rows.append(bench_generate(opened))
    print_bench(report, as_json=as_json)

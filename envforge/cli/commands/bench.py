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
    from envforge.bench.modes import bench_app, bench_runtime, bench_served_model
    from envforge.cli.output import print_bench

    if app_kind is not None:
        report = bench_app(package, app_kind, repeat=repeat)
    elif base_url is not None:
        if model is None:
            raise UserInputError("--base-url needs --model: the name the endpoint serves")
        report = bench_served_model(package, base_url, model, concurrency=concurrency, episodes=episodes)
    else:
        report = bench_runtime(
            package, sessions=sessions, repeat=repeat, generation=generation, sizes=sizes, scale_tasks=scale_tasks
        )
    print_bench(report, as_json=as_json)

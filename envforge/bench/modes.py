"""What `envforge bench` measures on a package, a report each: the runtime against naive baselines (and generating
the package), a served model's rollouts at several concurrencies, or the web or phone app; and which of them its
options ask for."""

from __future__ import annotations

from pathlib import Path

from envforge.bench.options import BenchOptions
from envforge.bench.report import BenchReport, warmup_runs
from envforge.errors import UserInputError
from envforge.ir.uitasks import AppKind
from envforge.pipeline.progress import step
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package


def bench_package(package: Path, options: BenchOptions) -> BenchReport:
    """What `options` asks to measure: the app (`app`), a served model's rollouts (`base_url`), or the runtime."""
    if options.app is not None:
        return bench_app(package, options.app, repeat=options.repeat)
    if options.base_url is None:
        return bench_runtime(package, options)
    if options.model is None:
        raise UserInputError("--base-url needs --model: the name the endpoint serves")
    return bench_served_model(
        package, options.base_url, options.model, concurrency=options.concurrency, episodes=options.episodes
    )


def bench_runtime(package: Path, options: BenchOptions) -> BenchReport:
    """Reset, tool calls, MCP calls, memory, verification and task synthesis, then verify and the gate at each of
    `sizes` (comma-separated total rows); with `generation`, generating the package too."""
    from envforge.bench.generate import GENERATE_RUNS, bench_generate
    from envforge.bench.runtime import run_bench
    from envforge.bench.sizes import FULL_SIZES, parse_sizes

    row_counts = parse_sizes(options.sizes)
    opened = open_package(package.resolve())
    report = run_bench(
        opened, sessions=options.sessions, repeat=options.repeat, sizes=row_counts, scale_tasks=options.scale_tasks
    )
    sizes = ", ".join(f"{size:,}" for size in row_counts)
    report.lines.append(
        f"sampled: {options.repeat} timings per row after {warmup_runs(options.repeat)} untimed; "
        f"{options.scale_tasks} tasks synthesized and gated for synthesis and at {sizes} rows; "
        f"{options.sessions:,} live sessions"
    )
    if options.generation:
        with step("generate"):
            report.rows.append(bench_generate(opened))
        report.lines.append(f"generation: {GENERATE_RUNS} cold builds, each followed by a cached rerun")
    if not options.generation or len(row_counts) < len(parse_sizes(FULL_SIZES)):
        report.lines.append(f"the full sweep (minutes): --sizes {FULL_SIZES} --generate")
    return report


def bench_served_model(package: Path, base_url: str, model: str, *, concurrency: str, episodes: int) -> BenchReport:
    """Rollout overhead and throughput against the model at `base_url`, at each of `concurrency` (comma-separated
    levels, the first the baseline)."""
    from envforge.bench.rollouts import bench_rollouts

    try:
        levels = [int(part) for part in concurrency.split(",") if part.strip()]
    except ValueError:
        levels = []
    if not levels or min(levels) < 1:
        raise UserInputError(f"--concurrency: '{concurrency}' is not a comma-separated list of positive integers")
    loaded = load_package(open_package(package))
    rows = bench_rollouts(loaded, base_url, model, concurrencies=levels, episodes=episodes)
    return BenchReport(loaded.env_id, str(package.resolve()), episodes, 0, rows)


def bench_app(package: Path, app: AppKind, *, repeat: int) -> BenchReport:
    """The app's cold start, reset and memory (at most 10 samples each, at least 3)."""
    from envforge.bench.apps import bench_apps

    loaded = load_package(open_package(package.resolve()))
    rows = bench_apps(loaded, app, repeat=max(3, min(repeat, 10)))
    return BenchReport(loaded.env_id, str(package.resolve()), repeat, 0, rows)

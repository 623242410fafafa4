"""The generation row of `envforge bench`: a cold build of the package's own blueprint vs a cached rerun."""

from __future__ import annotations

import tempfile
from pathlib import Path
from time import perf_counter_ns

from envforge.bench.report import BenchRow, summarize
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.opened_package import OpenedPackage
from envforge.stages.generate import run_pipeline

GENERATE_GOAL_S = 15.0
GENERATE_RUNS = 3


def bench_generate(package: OpenedPackage, *, runs: int = GENERATE_RUNS) -> BenchRow:
    """Build the package's blueprint (same seed and rows) into empty folders, then rerun one from its cache."""
    manifest = package.manifest
    config = GenerateConfig(seed=manifest.seed, rows=manifest.rows, tasks=manifest.tasks_requested)
    blueprint = package.path / "blueprint.yaml"
    cold: list[int] = []
    cached: list[int] = []
    with tempfile.TemporaryDirectory(prefix="envforge-bench-generate-") as scratch:
        for run in range(runs):
            out = Path(scratch) / str(run)
            started = perf_counter_ns()
            run_pipeline(blueprint, out, config)
            cold.append(perf_counter_ns() - started)
            started = perf_counter_ns()
            run_pipeline(blueprint, out, config)
            cached.append(perf_counter_ns() - started)
    ours, rerun = summarize(cold), summarize(cached)
    return BenchRow(
        key="generate",
        measure=f"generate ({config.rows:,} rows)",
        unit="s",
        median=ours.median / 1000,
        p95=ours.p95 / 1000,
        baseline="cached rerun",
        baseline_median=rerun.median / 1000,
        baseline_p95=rerun.p95 / 1000,
        samples=ours.samples,
        baseline_samples=rerun.samples,
        goal=GENERATE_GOAL_S,
        note="in-process pipeline, empty cache; the ratio is the share of a cold build a cached rerun costs",
    )

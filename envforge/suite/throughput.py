"""`envforge bench-suite`: one suite's batch throughput under each executor, and whether they write the same bytes.

Every run is a cold batch into a fresh folder. The local pool's runs go first whatever the order asked: a
process pool must not fork a process that holds a Ray driver. Ray is started once for its runs, as a running
cluster would be, and its start is reported apart from the timings.
"""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast, get_args

from envforge.errors import EnvforgeError, UserInputError, did_you_mean
from envforge.executors import RAY_INSTALL, ExecutorKind, Progress, import_ray, start_local_ray
from envforge.ir.display import Display, Table
from envforge.suite.blueprints import check_distinct, resolve_suite
from envforge.suite.report import BatchOutcome, SuiteReport
from envforge.suite.run import run_suite
from envforge.suite.settings import BatchSettings


@dataclass(frozen=True)
class ExecutorRuns:
    """The repeated batches of one executor."""

    executor: ExecutorKind
    parallelism: int
    """Processes of the local pool, or Ray's CPUs."""
    startup_seconds: float
    """Ray's start (0 for the local pool, whose processes start inside each timed batch)."""
    reports: list[SuiteReport]

    @property
    def packages_per_hour(self) -> float:
        return statistics.median(report.packages_per_hour for report in self.reports)

    @property
    def tasks_per_second(self) -> float:
        return statistics.median(report.tasks_per_second for report in self.reports)

    def as_dict(self, baseline: ExecutorRuns) -> dict[str, Any]:
        return {
            "executor": self.executor,
            "parallelism": self.parallelism,
            "startup_seconds": round(self.startup_seconds, 3),
            "wall_seconds": [round(report.wall_seconds, 3) for report in self.reports],
            "packages_per_hour": round(self.packages_per_hour, 3),
            "tasks_per_second": round(self.tasks_per_second, 3),
            "ratio": round(ratio(self.packages_per_hour, baseline.packages_per_hour), 3),
        }

    def cells(self, baseline: ExecutorRuns) -> tuple[str, ...]:
        """executor, parallel, wall s (each), packages/h, tasks/s, vs baseline, start s."""
        figures = self.as_dict(baseline)
        return (
            self.executor,
            str(self.parallelism),
            ", ".join(f"{seconds:.1f}" for seconds in figures["wall_seconds"]),
            f"{self.packages_per_hour:,.0f}",
            f"{self.tasks_per_second:,.2f}",
            "baseline" if self is baseline else f"{figures['ratio']:.2f}x",
            f"{self.startup_seconds:.1f}" if self.startup_seconds else "-",
        )


def ratio(ours: float, baseline: float) -> float:
    """Throughput over the baseline's: above 1 is faster."""
    return ours / baseline if baseline > 0 else 0.0


@dataclass(frozen=True)
class SuiteBenchReport:
    """Every executor's runs, the first executor's being the baseline, and the blueprints whose results differ."""

    blueprints: list[str]
    seed: int
    rows: int
    tasks: int
    repeat: int
    executors: list[ExecutorRuns]
    mismatches: list[str]

    @property
    def failures(self) -> list[BatchOutcome]:
        """Blueprints that failed in the baseline's first run (every run, when nothing mismatches)."""
        return [outcome for outcome in self.executors[0].reports[0].outcomes if not outcome.ok]

    def as_dict(self) -> dict[str, Any]:
        baseline = self.executors[0]
        return {
            "blueprints": self.blueprints,
            "seed": self.seed,
            "rows": self.rows,
            "tasks_requested": self.tasks,
            "repeat": self.repeat,
            "baseline": baseline.executor,
            "executors": [runs.as_dict(baseline) for runs in self.executors],
            "packages": [
                {"blueprint": outcome.blueprint, "package_hash": outcome.package_hash, "tasks": outcome.tasks}
                for outcome in baseline.reports[0].outcomes
            ],
            "failed": [f"{outcome.blueprint}: {outcome.error}" for outcome in self.failures],
            "hashes_agree": not self.mismatches,
            "mismatches": self.mismatches,
        }

    def check_agreement(self) -> None:
        """Raise unless every executor wrote the same packages."""
        if self.mismatches:
            raise EnvforgeError(
                f"package hashes differ between the batches (see the {len(self.mismatches)} HASH MISMATCH lines): "
                "generation is not deterministic across executors; report it with those lines"
            )

    def display(self) -> Display:
        """The table, whether the hashes agree, and each failed blueprint and mismatch as an alarm."""
        title = (
            f"envforge bench-suite: {len(self.blueprints)} blueprints, {self.rows:,} rows, {self.tasks} tasks, "
            f"{self.repeat} cold batches per executor"
        )
        columns = ("executor", "parallel", "wall s (each)", "packages/h", "tasks/s", "vs baseline", "start s")
        table = Table(title, columns, [runs.cells(self.executors[0]) for runs in self.executors])
        batches = len(self.executors) * self.repeat
        return Display(
            tables=[table],
            lines=[] if self.mismatches else [f"package hashes agree across all {batches} batches"],
            alarms=[
                *(f"FAILED {outcome.blueprint}: {outcome.error}" for outcome in self.failures),
                *(f"HASH MISMATCH {line}" for line in self.mismatches),
            ],
        )


def find_mismatches(runs: Mapping[str, Sequence[BatchOutcome]]) -> list[str]:
    """A line for each blueprint whose package hash (or failure) in a run differs from the first run's."""
    (first_label, first), *others = runs.items()
    lines = []
    for index, expected in enumerate(first):
        for label, outcomes in others:
            found = outcomes[index]
            if (found.ok, found.package_hash) != (expected.ok, expected.package_hash):
                lines.append(f"{expected.blueprint}: {first_label} {_shown(expected)}, {label} {_shown(found)}")
    return lines


def _shown(outcome: BatchOutcome) -> str:
    return f"package {outcome.package_hash[:16]}" if outcome.ok else "failed"


def parse_executors(text: str) -> list[ExecutorKind]:
    """`--executors`: comma-separated, each at most once, the first the baseline; ray only where Ray is installed."""
    executors: tuple[str, ...] = get_args(ExecutorKind)
    kinds = [part.strip() for part in text.split(",") if part.strip()]
    for kind in kinds:
        if kind not in executors:
            hint = did_you_mean(kind, executors) or f"; executors: {', '.join(executors)}"
            raise UserInputError(f"--executors: unknown executor '{kind}'{hint}")
    if not kinds or len(set(kinds)) < len(kinds):
        raise UserInputError(f"--executors {text}: name each of {', '.join(executors)} at most once")
    if "ray" in kinds:
        try:
            import_ray()
        except UserInputError:
            raise UserInputError(
                f"--executors {text}: ray needs Ray, which is not installed: {RAY_INSTALL} "
                "(or compare without it: --executors local)"
            ) from None
    return [cast("ExecutorKind", kind) for kind in kinds]


def run_suite_bench(
    blueprints: Sequence[str],
    executors: Sequence[ExecutorKind],
    *,
    workers: int,
    seed: int,
    rows: int,
    tasks: int,
    repeat: int,
    progress: Progress[BatchOutcome] | None = None,
) -> SuiteBenchReport:
    """Run the batch of `blueprints` (as `envforge batch` takes them) `repeat` times per executor into fresh folders;
    the first executor is the baseline."""
    entries = resolve_suite(blueprints)
    check_distinct(entries, Path("OUT"))
    paths = [entry.path for entry in entries]
    measured: dict[ExecutorKind, ExecutorRuns] = {}
    with tempfile.TemporaryDirectory(prefix="envforge-bench-suite-") as scratch:
        for executor in sorted(executors, key=lambda kind: kind == "ray"):
            settings = BatchSettings(seed, rows, tasks, workers, executor)
            measured[executor] = _measure(settings, paths, Path(scratch), repeat, progress)
    runs = {
        f"{executor} run {number}": report.outcomes
        for executor in executors
        for number, report in enumerate(measured[executor].reports, start=1)
    }
    return SuiteBenchReport(
        [str(path) for path in paths],
        seed,
        rows,
        tasks,
        repeat,
        [measured[executor] for executor in executors],
        find_mismatches(runs),
    )


def _measure(
    settings: BatchSettings,
    paths: list[Path],
    scratch: Path,
    repeat: int,
    progress: Progress[BatchOutcome] | None,
) -> ExecutorRuns:
    executor = settings.executor
    ray = import_ray() if executor == "ray" else None
    started = time.perf_counter()
    owned = ray is not None and not ray.is_initialized()
    if ray is not None and owned:
        start_local_ray(ray)
    startup = time.perf_counter() - started if owned else 0.0
    try:
        parallelism = (
            int(ray.cluster_resources().get("CPU", 0)) if ray is not None else min(settings.workers, len(paths))
        )
        reports = [
            run_suite(paths, scratch / f"{executor}-{number}", settings, progress) for number in range(1, repeat + 1)
        ]
    finally:
        if ray is not None and owned:
            ray.shutdown()
    return ExecutorRuns(executor, parallelism, startup, reports)

"""The figures of `envforge bench`: timed series, their summaries, and the rows and report they fill."""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from time import perf_counter_ns
from typing import Any, TypeVar

from envforge.ir.display import Display, Table

T = TypeVar("T")


@dataclass(frozen=True)
class Timing:
    """Summary of one timed series, in milliseconds."""

    median: float
    p95: float
    samples: int


def summarize(samples_ns: list[int]) -> Timing:
    """Median and p95 (the 19th of 20 quantiles) of nanosecond samples, in milliseconds."""
    if not samples_ns:
        raise ValueError("no samples")
    p95 = statistics.quantiles(samples_ns, n=20, method="inclusive")[18] if len(samples_ns) > 1 else samples_ns[0]
    return Timing(statistics.median(samples_ns) / 1e6, p95 / 1e6, len(samples_ns))


def warmup_runs(repeat: int) -> int:
    """Untimed runs before `repeat` timed ones."""
    return max(5, repeat // 10)


def time_calls(
    call: Callable[[], T],
    *,
    repeat: int,
    warmup: int,
    before: Callable[[], object] | None = None,
    check: Callable[[T], None] | None = None,
) -> Timing:
    """Time `call` `repeat` times after `warmup` untimed runs; `before` and `check(result)` run untimed."""
    samples: list[int] = []
    for index in range(warmup + repeat):
        if before is not None:
            before()
        start = perf_counter_ns()
        result = call()
        elapsed = perf_counter_ns() - start
        if check is not None:
            check(result)
        if index >= warmup:
            samples.append(elapsed)
    return summarize(samples)


@dataclass(frozen=True)
class BenchRow:
    """One measure beside its baseline; `ratio` is baseline / ours (above 1: ours is better)."""

    key: str
    measure: str
    unit: str
    median: float
    p95: float | None
    baseline: str
    baseline_median: float
    baseline_p95: float | None
    samples: int
    baseline_samples: int
    goal: float | None = None
    note: str = ""

    @property
    def ratio(self) -> float:
        return self.baseline_median / self.median if self.median > 0 else float("inf")

    @property
    def met(self) -> bool | None:
        return None if self.goal is None else self.median <= self.goal

    def cells(self) -> tuple[str, ...]:
        """measure, median, p95, baseline, baseline median, speed-up, goal, met, samples (ours / baseline's)."""
        met = "-" if self.met is None else ("yes" if self.met else "NO")
        return (
            self.measure,
            self._quantity(self.median),
            "-" if self.p95 is None else self._quantity(self.p95),
            self.baseline,
            self._quantity(self.baseline_median),
            f"{self.ratio:,.1f}x",
            "-" if self.goal is None else f"<= {self.goal:g} {self.unit}",
            met,
            f"{self.samples:,} / {self.baseline_samples:,}",
        )

    def _quantity(self, value: float) -> str:
        digits = 3 if self.unit == "ms" and value < 10 else 2 if self.unit == "s" else 1
        return f"{value:,.{digits}f} {self.unit}"

    def as_dict(self) -> dict[str, Any]:
        return {
            "key": self.key,
            "measure": self.measure,
            "unit": self.unit,
            "median": self.median,
            "p95": self.p95,
            "baseline": self.baseline,
            "baseline_median": self.baseline_median,
            "baseline_p95": self.baseline_p95,
            "ratio": self.ratio,
            "goal": self.goal,
            "met": self.met,
            "samples": self.samples,
            "baseline_samples": self.baseline_samples,
            "note": self.note,
        }


@dataclass(frozen=True)
class BenchReport:
    """Every row of one `envforge bench` run."""

    env_id: str
    package: str
    samples: int
    sessions: int
    rows: list[BenchRow] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    """What was sampled and what was left out, below the table (not in the JSON, whose rows say it)."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "package": self.package,
            "samples": self.samples,
            "sessions": self.sessions,
            "rows": [row.as_dict() for row in self.rows],
        }

    def display(self) -> Display:
        columns = ("measure", "median", "p95", "baseline", "baseline median", "speed-up", "goal", "met", "samples")
        title = f"envforge bench {self.env_id}"
        return Display(tables=[Table(title, columns, [row.cells() for row in self.rows])], lines=self.lines)


def timed_row(
    key: str,
    measure: str,
    ours: Timing,
    baseline_label: str,
    baseline: Timing,
    *,
    goal: float | None,
    note: str,
) -> BenchRow:
    """A row in milliseconds from our timing and the baseline's."""
    return BenchRow(
        key=key,
        measure=measure,
        unit="ms",
        median=ours.median,
        p95=ours.p95,
        baseline=baseline_label,
        baseline_median=baseline.median,
        baseline_p95=baseline.p95,
        samples=ours.samples,
        baseline_samples=baseline.samples,
        goal=goal,
        note=note,
    )

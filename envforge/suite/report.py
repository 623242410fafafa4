"""A batch's outcome: a row per blueprint, and the suite report `<out>/suite.json` made of them.

Everything in the report is a function of the blueprints and the options except what sits under `timing`
(seconds, rates, and how many stages were built rather than taken from the stage cache), so two runs of one
suite compare equal once their `timing` keys are dropped.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envforge.executors import ExecutorKind
from envforge.ir.display import Display, Table

SUITE_JSON = "suite.json"
SCHEMA_VERSION = 1


@dataclass(frozen=True)
class BatchOutcome:
    blueprint: str
    ok: bool
    seconds: float
    env_id: str = ""
    package: str = ""
    package_hash: str = ""
    error: str = ""
    user_error: bool = False
    tasks: int = 0
    """Tasks the package ships."""
    stages_built: int = 0
    stages_cached: int = 0
    """Stages this run built, and those it took from the stage cache (a resumed or repeated run)."""

    def cells(self) -> tuple[str, ...]:
        """blueprint, env id, result, tasks, seconds, stages cached, package or error."""
        return (
            self.blueprint,
            self.env_id or "-",
            "ok" if self.ok else "FAILED",
            str(self.tasks) if self.ok else "-",
            f"{self.seconds:.2f}",
            f"{self.stages_cached}/{self.stages_built + self.stages_cached}" if self.ok else "-",
            self.package if self.ok else self.error,
        )


@dataclass(frozen=True)
class SuiteReport:
    """One batch: a row per blueprint, in the order given, and the totals."""

    outcomes: list[BatchOutcome]
    out: Path
    executor: ExecutorKind
    workers: int | None
    """Processes of the local pool; None on Ray, whose CPUs decide."""
    seed: int
    rows: int
    tasks: int
    wall_seconds: float

    @property
    def path(self) -> Path:
        return self.out / SUITE_JSON

    @property
    def packages_ok(self) -> int:
        return sum(outcome.ok for outcome in self.outcomes)

    @property
    def tasks_shipped(self) -> int:
        return sum(outcome.tasks for outcome in self.outcomes)

    @property
    def packages_per_hour(self) -> float:
        return self.packages_ok * 3600 / self.wall_seconds if self.wall_seconds > 0 else 0.0

    @property
    def tasks_per_second(self) -> float:
        return self.tasks_shipped / self.wall_seconds if self.wall_seconds > 0 else 0.0

    def summary(self) -> str:
        """The totals in a sentence: packages made and failed, tasks, time, throughput, executor, the report's path."""
        workers = f", {self.workers} workers" if self.workers is not None else ""
        return (
            f"{self.packages_ok} packages ok, {len(self.outcomes) - self.packages_ok} failed, "
            f"{self.tasks_shipped} tasks in {self.wall_seconds:.1f} s: {self.packages_per_hour:,.0f} packages/hour, "
            f"{self.tasks_per_second:,.2f} tasks/s ({self.executor}{workers}); report: {self.path}"
        )

    @property
    def exit_code(self) -> int:
        """0 when every package was made; 2 when every failure is the blueprint's (bad input), else 1."""
        failures = [outcome for outcome in self.outcomes if not outcome.ok]
        if not failures:
            return 0
        return 2 if all(outcome.user_error for outcome in failures) else 1

    def display(self) -> Display:
        columns = ("blueprint", "env id", "result", "tasks", "seconds", "stages cached", "package / error")
        title = f"batch: {self.packages_ok}/{len(self.outcomes)} generated"
        return Display(
            tables=[Table(title, columns, [outcome.cells() for outcome in self.outcomes])], lines=[self.summary()]
        )

    def package(self, outcome: BatchOutcome) -> str:
        """The package folder relative to `out` (the report lives there), or "" for a failed blueprint."""
        return os.path.relpath(outcome.package, self.out) if outcome.ok else ""

    def as_dict(self) -> dict[str, Any]:
        return {
            "schema_version": SCHEMA_VERSION,
            "executor": self.executor,
            "workers": self.workers,
            "seed": self.seed,
            "rows": self.rows,
            "tasks_requested": self.tasks,
            "blueprints": [self._row(outcome) for outcome in self.outcomes],
            "totals": {
                "packages_ok": self.packages_ok,
                "packages_failed": len(self.outcomes) - self.packages_ok,
                "tasks": self.tasks_shipped,
                "timing": {
                    "wall_seconds": round(self.wall_seconds, 3),
                    "packages_per_hour": round(self.packages_per_hour, 3),
                    "tasks_per_second": round(self.tasks_per_second, 3),
                    "stages_built": sum(outcome.stages_built for outcome in self.outcomes),
                    "stages_cached": sum(outcome.stages_cached for outcome in self.outcomes),
                },
            },
        }

    def _row(self, outcome: BatchOutcome) -> dict[str, Any]:
        return {
            "blueprint": outcome.blueprint,
            "env_id": outcome.env_id,
            "ok": outcome.ok,
            "package": self.package(outcome),
            "package_hash": outcome.package_hash,
            "tasks": outcome.tasks,
            "error": outcome.error,
            "user_error": outcome.user_error,
            "timing": {
                "seconds": round(outcome.seconds, 3),
                "stages_built": outcome.stages_built,
                "stages_cached": outcome.stages_cached,
            },
        }

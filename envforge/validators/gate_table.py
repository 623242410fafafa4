"""The verifier gate across packages (`envforge report`): a row per class of cheat and per legitimate variation, a
column per package, each cell `accepted/played` from the package's report.json.

The figures are the shipped verifiers' (the tasks the package keeps): every cheat must be accepted 0 times, every
legitimate run accepted each time. The candidate tasks the gate dropped for rejecting a legitimate run are counted
apart, by variation: they tell how often the verifier would punish a legitimate agent before the gate steps in.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from envforge.ir.display import Display, Table
from envforge.ir.verification import LEGITIMATE, ValidationReport, weighing_share
from envforge.runtime.opened_package import broken, first_error, open_package
from envforge.validators.loaded_package import require_package

REPORT = "report.json"
ABSENT = "-"


@dataclass(frozen=True)
class PackageGate:
    """One package's gate figures: class or variation -> (accepted, played)."""

    domain: str
    path: Path
    cheats: dict[str, tuple[int, int]]
    legitimate: dict[str, tuple[int, int]]
    dropped: dict[str, int] = field(default_factory=dict)
    """Legitimate variation -> candidate tasks the gate dropped because their verifier rejected a run of it."""
    conditions: dict[int, int] = field(default_factory=dict)
    """How many conditions of its policies a policy task's verdict turns on -> the package's policy tasks."""

    def failures(self) -> list[str]:
        """Each cheat class the shipped verifiers accepted, each legitimate variation they rejected."""
        cheats = [
            f"{self.domain}: {accepted} of {played} {kind} cheats rewarded"
            for kind, (accepted, played) in self.cheats.items()
            if accepted
        ]
        legitimate = [
            f"{self.domain}: {played - accepted} of {played} {LEGITIMATE}:{name} runs rejected"
            for name, (accepted, played) in self.legitimate.items()
            if accepted != played
        ]
        return cheats + legitimate


def read_package_gate(path: Path) -> PackageGate:
    """A package's gate figures from its report.json; a PackageError (one line) when there are none to read."""
    require_package(path)
    package = open_package(path)
    try:
        report = ValidationReport.model_validate_json(package.read(REPORT))
    except ValidationError as exc:
        raise broken(path / REPORT, f"not a validation report ({first_error(exc)})", path) from None
    gate = report.gate
    dropped: Counter[str] = Counter()
    for result in report.tasks:
        if not result.accepted:
            dropped.update({run.variation for run in result.mutants if run.variation is not None and run.reward != 1})
    return PackageGate(
        domain=package.manifest.domain,
        path=path,
        cheats={kind: (rate.false_positives, rate.mutants) for kind, rate in gate.by_class.items()},
        legitimate={name: (rate.accepted, rate.played) for name, rate in gate.legitimate.items()},
        dropped=dict(sorted(dropped.items())),
        conditions=report.mix.conditions_per_policy_task if report.mix is not None else {},
    )


def _cell(figures: dict[str, tuple[int, int]], name: str) -> str:
    if name not in figures:
        return ABSENT
    accepted, played = figures[name]
    return f"{accepted}/{played}"


@dataclass(frozen=True)
class GateTable:
    """What `envforge report` shows: the gate's figures of each package, side by side."""

    packages: list[PackageGate]

    @property
    def passed(self) -> bool:
        return not any(package.failures() for package in self.packages)

    def as_dict(self) -> dict[str, Any]:
        def figures(table: dict[str, tuple[int, int]]) -> dict[str, dict[str, int]]:
            return {name: {"accepted": accepted, "played": played} for name, (accepted, played) in table.items()}

        return {
            "passed": self.passed,
            "packages": [
                {
                    "domain": package.domain,
                    "path": str(package.path),
                    "cheats": figures(package.cheats),
                    "legitimate": figures(package.legitimate),
                    "dropped_for_legitimate": package.dropped,
                    "conditions_per_policy_task": package.conditions,
                }
                for package in self.packages
            ],
        }

    def display(self) -> Display:
        """One table: the cheat classes (each must read 0/n), then the legitimate variations (each n/n)."""
        cheats = sorted({kind for package in self.packages for kind in package.cheats})
        variations = sorted({name for package in self.packages for name in package.legitimate})
        rows = [(kind, *(_cell(package.cheats, kind) for package in self.packages)) for kind in cheats]
        rows += [
            (f"{LEGITIMATE}:{name}", *(_cell(package.legitimate, name) for package in self.packages))
            for name in variations
        ]
        columns = ("class", *(package.domain for package in self.packages))
        title = "Verifier gate, accepted/played: cheats must read 0/n, legitimate runs n/n"
        lines = [
            f"{package.domain}: the gate dropped candidate tasks whose verifier rejected a legitimate run: "
            + ", ".join(f"{name} {count}" for name, count in package.dropped.items())
            for package in self.packages
            if package.dropped
        ]
        lines += [
            f"{package.domain}: conditions per policy task (how many of its policies' conditions the verdict turns "
            "on): "
            + ", ".join(f"{conditions}: {count}" for conditions, count in package.conditions.items())
            + f" ({weighing_share(package.conditions):.0%} on two or more)"
            for package in self.packages
            if package.conditions
        ]
        alarms = [f"FAILED {failure}" for package in self.packages for failure in package.failures()]
        return Display(tables=[Table(title, columns, rows)], lines=lines, alarms=alarms)


def gate_table(paths: list[Path]) -> GateTable:
    """The gate's figures of each package named, from their report.json files."""
    return GateTable([read_package_gate(path) for path in paths])

"""What one conformance check found (passed, failed or skipped, with a one-line message and every problem), and
what the suite of them found on a package."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from envforge.errors import EnvforgeError
from envforge.ir.display import SHOWN, Display, Table

Status = Literal["passed", "failed", "skipped"]
HEADLINE_PROBLEMS = 3
"""How many problems a failure's headline names; the rest are only in its details."""


@dataclass(frozen=True)
class CheckResult:
    family: str
    """The module the check belongs to, e.g. `integrity` or `verifier_gates`."""
    name: str
    status: Status
    message: str
    """One line: what was checked when it passed, what failed otherwise (the problems are in `details`)."""
    seconds: float
    details: tuple[str, ...] = ()
    """Every problem found, one line each, naming its file, tool or task."""

    @property
    def passed(self) -> bool:
        return self.status == "passed"

    def headline(self) -> str:
        """The message followed by the first few problems, for places that show one line only."""
        shown = "; ".join(self.details[:HEADLINE_PROBLEMS])
        more = len(self.details) - HEADLINE_PROBLEMS
        if more > 0:
            shown += f"; and {more} more"
        return f"{self.message}: {shown}" if shown else self.message


@dataclass(frozen=True)
class CheckReport:
    """Every check on one package, in the order they ran."""

    env_id: str
    """The manifest's env id, or the folder's name when the manifest cannot be read."""
    results: list[CheckResult]

    @property
    def passed(self) -> bool:
        return all(result.passed for result in self.results)

    def as_dict(self) -> dict[str, Any]:
        checks = [{**asdict(result), "passed": result.passed} for result in self.results]
        return {"env_id": self.env_id, "passed": self.passed, "checks": checks}

    def display(self) -> Display:
        """A row per check, then each failure below the table on its own lines, which a CI log can be searched for."""
        passed = sum(result.passed for result in self.results)
        labels = {"passed": "ok", "failed": "FAILED", "skipped": "skipped"}
        rows = [
            (result.name, labels[result.status], f"{result.seconds:.2f}", result.message) for result in self.results
        ]
        title = f"envforge check {self.env_id}: {passed}/{len(self.results)} passed"
        lines = []
        for result in self.results:
            if result.status != "failed":
                continue
            lines.append(f"FAILED {result.name}: {result.message}")
            lines += [f"  - {detail}" for detail in result.details[:SHOWN]]
            if len(result.details) > SHOWN:
                lines.append(f"  ... and {len(result.details) - SHOWN} more (see --json or --junit)")
        return Display(tables=[Table(title, ("check", "result", "seconds", "message"), rows)], lines=lines)


class ConformanceError(EnvforgeError):
    """Raised by a check: the package breaks a rule. `problems` lists every instance, one line each."""

    def __init__(self, summary: str, problems: list[str] | None = None) -> None:
        self.summary = summary
        self.problems = tuple(problems or ())
        super().__init__(f"{summary}: {'; '.join(self.problems)}" if self.problems else summary)

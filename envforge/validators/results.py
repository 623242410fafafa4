"""What one conformance check found: passed, failed or skipped, with a one-line message and every problem."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from envforge.errors import EnvforgeError

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


class ConformanceError(EnvforgeError):
    """Raised by a check: the package breaks a rule. `problems` lists every instance, one line each."""

    def __init__(self, summary: str, problems: list[str] | None = None) -> None:
        self.summary = summary
        self.problems = tuple(problems or ())
        super().__init__(f"{summary}: {'; '.join(self.problems)}" if self.problems else summary)

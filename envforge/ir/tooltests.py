"""The outcome of testing every tool before it is admitted into an environment package."""

from __future__ import annotations

from typing import Any, Literal

from envforge.ir.base import IRModel


class ToolTestResult(IRModel):
    """How one tool behaved under generated valid and invalid calls."""

    tool: str
    """Name of the tested tool."""
    kind: Literal["read", "write"]
    """READ or WRITE, as declared by the tool."""
    admitted: bool
    """Whether every call behaved; a tool that is not admitted is left out of the package."""
    reason: str = ""
    """One line: why the tool was excluded, or a note on an admitted tool (e.g. no call ever succeeded)."""
    failing_example: dict[str, Any] | None = None
    """The arguments of the first call that misbehaved; None when the tool is admitted."""
    valid_calls: int
    """Calls made with arguments that satisfy the schema and name existing records."""
    valid_successes: int
    """Valid calls that succeeded (the rest were refused by a precondition, policy or missing record)."""
    invalid_calls: int
    """Calls made with malformed arguments or unknown ids, each expected to be refused."""


class ToolTestReport(IRModel):
    """Results for every tool of an environment, in tool-graph order."""

    schema_version: Literal[1] = 1
    results: list[ToolTestResult]
    """One result per tool."""

    def admitted(self) -> set[str]:
        """Names of the tools that passed."""
        return {result.tool for result in self.results if result.admitted}

    def excluded(self) -> list[ToolTestResult]:
        """Results of the tools that failed, in tool-graph order."""
        return [result for result in self.results if not result.admitted]

"""Tool behaviour: the procedural tool tests, re-run on the shipped state, admit every tool the package keeps."""

from __future__ import annotations

from envforge.hashing import canonical_json
from envforge.stages.tooltests.worker import run_isolated
from envforge.validators.loaded_package import LoadedPackage
from envforge.validators.results import ConformanceError


def check_tool_behaviour(package: LoadedPackage) -> str:
    """Re-run the tool tests with the package's seed; a tool not excluded by report.json must be admitted."""
    excluded = {tool.tool for tool in package.report.tools_excluded}
    # A fresh interpreter, as at generation, so the same seed draws the same calls.
    report = run_isolated(package.env, seed=package.manifest.seed)
    broken = [result for result in report.excluded() if result.tool not in excluded]
    if broken:
        raise ConformanceError(
            f"{len(broken)} of {len(report.results)} tools misbehaved on the shipped state",
            [f"{result.tool}: {result.reason} (call: {canonical_json(result.failing_example)})" for result in broken],
        )
    calls = sum(result.valid_calls + result.invalid_calls for result in report.results)
    note = f"; {len(excluded)} excluded by report.json" if excluded else ""
    return f"{len(report.results) - len(excluded)} tools admitted after {calls} generated calls{note}"

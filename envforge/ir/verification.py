"""Outcomes of the verifier gate and the package's validation report."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from envforge.ir.base import IRModel


class MutantResult(IRModel):
    """One automatic mutant of a golden run and the reward the verifier gave it."""

    name: str
    equivalent: bool
    """The mutant ends in the golden state with the golden answer, so rewarding it is right."""
    reward: float


class GateResult(IRModel):
    """The gate's verdict on one task."""

    task_id: str
    accepted: bool
    reason: str = ""
    """`code: explanation` of the first failed check, empty when accepted."""
    golden_reward: float
    mutants: list[MutantResult]
    discrimination: float
    """Share of non-equivalent mutants the verifier rejected (1.0 is perfect)."""


class GateSummary(IRModel):
    """Suite-level error rates of the verifiers."""

    golden_runs: int
    golden_false_negatives: int
    golden_false_negative_rate: float
    mutants: int
    equivalent_mutants: int
    mutant_false_positives: int
    mutant_false_positive_rate: float


class ExcludedTool(IRModel):
    tool: str
    reason: str
    failing_example: dict[str, Any] | None = None


class ValidationReport(IRModel):
    """`report.json`: what was checked about a package and what came of it."""

    schema_version: Literal[1] = 1
    env_id: str
    tools_admitted: int
    tools_excluded: list[ExcludedTool]
    tasks_requested: int
    tasks_generated: int
    tasks_accepted: int
    tasks_dropped: dict[str, int]
    """Gate failure code -> how many tasks it dropped."""
    accepted_by_kind: dict[str, int]
    difficulty_bands: dict[str, int]
    chain_lengths: dict[str, int]
    """Oracle length -> accepted tasks."""
    gate: GateSummary
    shortfall: str = ""
    """Why fewer tasks than requested were accepted, if so."""
    tasks: list[GateResult] = Field(default_factory=list)

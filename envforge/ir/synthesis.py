"""`synthesis.json`: what the LLM wrote for a package, what was checked, and what it cost."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from envforge.ir.base import IRModel


class BlueprintWriting(IRModel):
    """How the blueprint came to be."""

    questions: int
    """Step questions asked, repairs included."""
    repair_rounds: int
    repairs: list[str] = Field(default_factory=list)
    """`step: error` fed back to the model, one per round."""
    notes: list[str] = Field(default_factory=list)
    """Repetitions dropped while assembling (a name the model gave twice)."""


class TaskReview(IRModel):
    """One task after the paraphrase and the information barrier."""

    task_id: str
    paraphrased: bool
    """The package ships the model's rewording (else the procedural instruction)."""
    paraphrase_problem: str = ""
    """Why the rewording was not used: a fact it dropped, changed or invented, or an unreadable answer."""
    barrier_agreed: bool
    barrier_claim: dict[str, Any] | None = None
    """What the separate check declared (changes, or the column a question is about)."""
    barrier_reason: str = ""
    """Why the check and the verifier disagree; the task is then dropped as `barrier_disagreement`."""


class LLMUsage(IRModel):
    """What generating this environment took, whether this run paid for it or the response cache did."""

    requests: int
    prompt_tokens: int
    completion_tokens: int
    price_prompt: float
    """Currency units per million prompt tokens."""
    price_completion: float
    """Currency units per million completion tokens."""
    cost: float


class SynthesisReport(IRModel):
    schema_version: Literal[1] = 1
    description: str
    """The description the blueprint was written from."""
    model: str
    blueprint: BlueprintWriting
    tasks_reviewed: int
    """Gate-accepted tasks paraphrased and checked, in order, until enough agreed."""
    paraphrased: int
    kept_procedural: int
    barrier_agreed: int
    barrier_dropped: int
    reviews: list[TaskReview]
    usage: LLMUsage


class ReviewConfig(IRModel):
    """What the LLM review of a run's tasks is keyed on: the same values give the same review and report."""

    description: str
    model: str
    json_mode: Literal["vllm", "openai"]
    price_prompt: float
    price_completion: float
    writing: BlueprintWriting
    """How the blueprint was written, for the package's synthesis report."""
    writer_requests: int
    writer_prompt_tokens: int
    writer_completion_tokens: int

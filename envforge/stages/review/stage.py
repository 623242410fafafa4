"""The `review` stage: a pass-through in procedural runs; with `GenerateConfig.review`, the LLM reviewer's result.

The reviewer is a service handed to the DAG when it is assembled (`envforge.stages.registry.pipeline_stages`),
so this stage never imports the LLM code; what the review is keyed on is `GenerateConfig.review`.
"""

from __future__ import annotations

from typing import Protocol

from envforge.errors import PipelineError
from envforge.ir.synthesis import ReviewConfig
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, StageInputs, declare_stage
from envforge.stages.review.artifact import ReviewArtifact
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.verifiers.artifact import VerifierArtifact


class ReviewInputs(StageInputs):
    blueprint: BlueprintArtifact
    toolgraph: ToolGraphArtifact
    state: StateArtifact
    verifiers: VerifierArtifact


class TaskReviewer(Protocol):
    """Rewords and checks the gate's accepted tasks until `config.tasks` agree; `review` says how."""

    def __call__(self, inputs: ReviewInputs, config: GenerateConfig, review: ReviewConfig) -> ReviewArtifact: ...


def review_stage(reviewer: TaskReviewer | None) -> Stage[ReviewInputs, ReviewArtifact]:
    def build(inputs: ReviewInputs, config: GenerateConfig) -> ReviewArtifact:
        if config.review is None:
            verified = inputs.verifiers
            return ReviewArtifact(accepted=verified.accepted, sources=verified.sources, results=verified.results)
        if reviewer is None:
            raise PipelineError("this run asks for an LLM review (GenerateConfig.review) but no reviewer was given")
        return reviewer(inputs, config, config.review)

    return declare_stage("review", 1, build, config_fields=("tasks", "review"))

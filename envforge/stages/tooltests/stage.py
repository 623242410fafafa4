"""The `tooltests` stage declaration."""

from __future__ import annotations

from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.runtime.environment import Environment
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.tooltests.artifact import ToolTestArtifact
from envforge.stages.tooltests.worker import run_isolated


class ToolTestInputs(StageInputs):
    blueprint: BlueprintArtifact
    toolgraph: ToolGraphArtifact
    state: StateArtifact


def build(inputs: ToolTestInputs, config: GenerateConfig) -> ToolTestArtifact:
    # The policy text is what the agent reads; the enforced rules live in the blueprint.
    env = Environment(inputs.blueprint.blueprint, inputs.toolgraph.toolgraph, inputs.state.database, "")
    return ToolTestArtifact(report=run_isolated(env, seed=config.seed))


STAGE = declare_stage("tooltests", 4, build, config_fields=("seed",))

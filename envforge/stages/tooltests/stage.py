"""The `tooltests` stage declaration."""

from __future__ import annotations

from envforge.errors import PipelineError
from envforge.ir.violations import count_state_violations, describe_violations
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
    blueprint = inputs.blueprint.blueprint
    problems = describe_violations(count_state_violations(blueprint, inputs.state.database))
    if problems:
        raise PipelineError(
            f"the seeded state breaks {len(problems)} seed invariant(s), first {problems[0]}; the state stage "
            "should have satisfied it: report this with the blueprint"
        )
    # The policy text is what the agent reads; the enforced rules live in the blueprint.
    env = Environment(blueprint, inputs.toolgraph.toolgraph, inputs.state.database, "")
    return ToolTestArtifact(report=run_isolated(env, seed=config.seed))


STAGE = declare_stage("tooltests", 5, build, config_fields=("seed",))

"""The `tooltests` stage declaration."""

from __future__ import annotations

from envforge.errors import PipelineError
from envforge.ir.tooltests import ToolTestReport, ToolTestResult
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


def every_tool_passing(inputs: ToolTestInputs) -> ToolTestArtifact:
    """The report of a tool graph whose every tool passes (no call counted): what the stages that read only which
    tools are admitted start on while the tests run. Every tool of every shipped domain passes; where one fails (a
    bug, or a write whose rules can never hold) those stages are built again on the real report."""
    return ToolTestArtifact(
        report=ToolTestReport(
            results=[
                ToolTestResult(
                    tool=tool.name, kind=tool.kind, admitted=True, valid_calls=0, valid_successes=0, invalid_calls=0
                )
                for tool in inputs.toolgraph.toolgraph.tools
            ]
        )
    )


# Aside: the tests run in interpreters of their own (`worker.py`), so the run goes on with the stages after.
STAGE = declare_stage("tooltests", 5, build, config_fields=("seed",), aside=True, stand_in=every_tool_passing)

"""The `tooltests` stage declaration."""

from __future__ import annotations

from collections.abc import Mapping

from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, StateArtifact, ToolGraphArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.pipeline.tooltest_artifacts import ToolTestArtifact
from envforge.runtime.environment import Environment
from envforge.stages.tooltests.worker import run_isolated


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> ToolTestArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact)
    toolgraph = need(inputs, "toolgraph", ToolGraphArtifact)
    state = need(inputs, "state", StateArtifact)
    # The policy text is what the agent reads; the enforced rules live in the blueprint.
    env = Environment(blueprint.blueprint, toolgraph.toolgraph, state.database, "")
    return ToolTestArtifact(report=run_isolated(env, seed=config.seed))


STAGE = Stage(
    name="tooltests",
    version=2,
    inputs=("blueprint", "toolgraph", "state"),
    output=ToolTestArtifact,
    build=build,
    config_fields=("seed",),
)

"""The `state` stage declaration."""

from __future__ import annotations

from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.stages.ontology.artifact import OntologyArtifact
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.state.build import build_state, render_ddl


class StateInputs(StageInputs):
    blueprint: BlueprintArtifact
    ontology: OntologyArtifact


def build(inputs: StateInputs, config: GenerateConfig) -> StateArtifact:
    blueprint = inputs.blueprint.blueprint
    database, rows = build_state(blueprint, inputs.ontology.ontology, rows=config.rows, seed=config.seed)
    return StateArtifact(database=database, ddl=render_ddl(blueprint), rows=rows)


STAGE = declare_stage("state", 6, build, config_fields=("rows", "seed"))

"""The `state` stage declaration."""

from __future__ import annotations

from collections.abc import Mapping

from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, OntologyArtifact, StateArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.stages.state.build import build_state, render_ddl


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> StateArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact)
    ontology = need(inputs, "ontology", OntologyArtifact)
    database, rows = build_state(blueprint.blueprint, ontology.ontology, rows=config.rows, seed=config.seed)
    return StateArtifact(database=database, ddl=render_ddl(blueprint.blueprint), rows=rows)


STAGE = Stage(
    name="state",
    version=1,
    inputs=("blueprint", "ontology"),
    output=StateArtifact,
    build=build,
    config_fields=("rows", "seed"),
)

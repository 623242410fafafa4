"""The `ontology` stage declaration."""

from __future__ import annotations

from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.stages.ontology.artifact import OntologyArtifact
from envforge.stages.ontology.build import build_ontology


class OntologyInputs(StageInputs):
    blueprint: BlueprintArtifact


def build(inputs: OntologyInputs, config: GenerateConfig) -> OntologyArtifact:
    return OntologyArtifact(ontology=build_ontology(inputs.blueprint.blueprint))


STAGE = declare_stage("ontology", 1, build)

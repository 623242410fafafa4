"""The `ontology` stage declaration."""

from __future__ import annotations

from collections.abc import Mapping

from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, OntologyArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.stages.ontology.build import build_ontology


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> OntologyArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact)
    return OntologyArtifact(ontology=build_ontology(blueprint.blueprint))


STAGE = Stage(name="ontology", version=1, inputs=("blueprint",), output=OntologyArtifact, build=build)

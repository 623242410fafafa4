"""The `toolgraph` stage declaration."""

from __future__ import annotations

from collections.abc import Mapping

from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, OntologyArtifact, ToolGraphArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.stages.toolgraph.build import build_toolgraph
from envforge.stages.toolgraph.render import render_svg


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> ToolGraphArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact)
    ontology = need(inputs, "ontology", OntologyArtifact)
    graph = build_toolgraph(blueprint.blueprint, ontology.ontology)
    return ToolGraphArtifact(toolgraph=graph, picture=render_svg(graph))


STAGE = Stage(name="toolgraph", version=3, inputs=("blueprint", "ontology"), output=ToolGraphArtifact, build=build)

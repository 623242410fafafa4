"""The `toolgraph` stage declaration."""

from __future__ import annotations

from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.stages.ontology.artifact import OntologyArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.toolgraph.build import build_toolgraph
from envforge.stages.toolgraph.render import render_svg


class ToolGraphInputs(StageInputs):
    blueprint: BlueprintArtifact
    ontology: OntologyArtifact


def build(inputs: ToolGraphInputs, config: GenerateConfig) -> ToolGraphArtifact:
    graph = build_toolgraph(inputs.blueprint.blueprint, inputs.ontology.ontology)
    return ToolGraphArtifact(toolgraph=graph, picture=render_svg(graph))


STAGE = declare_stage("toolgraph", 4, build)

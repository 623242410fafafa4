"""The `tasks` stage: synthesized tasks with oracles and golden diffs, before the verifier gate."""

from __future__ import annotations

from collections.abc import Mapping

from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, OntologyArtifact, StateArtifact, ToolGraphArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.pipeline.task_artifacts import TaskSetArtifact
from envforge.pipeline.tooltest_artifacts import ToolTestArtifact
from envforge.stages.tasks.synthesize import synthesize_tasks

SPARE = 1.25
"""Synthesize this many times the requested count, so the gate can drop some and still meet it."""


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> TaskSetArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact).blueprint
    ontology = need(inputs, "ontology", OntologyArtifact).ontology
    graph = need(inputs, "toolgraph", ToolGraphArtifact).toolgraph
    state = need(inputs, "state", StateArtifact)
    admitted = need(inputs, "tooltests", ToolTestArtifact).report.admitted()
    wanted = round(config.tasks * SPARE) + 1
    tasks, found = synthesize_tasks(
        blueprint, ontology, graph, state.database, admitted, count=wanted, seed=config.seed
    )
    return TaskSetArtifact(requested=config.tasks, found=found, tasks=tasks)


STAGE = Stage(
    name="tasks",
    version=2,
    inputs=("blueprint", "ontology", "toolgraph", "state", "tooltests"),
    output=TaskSetArtifact,
    build=build,
    config_fields=("seed", "rows", "tasks"),
)

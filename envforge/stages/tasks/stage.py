"""The `tasks` stage: synthesized tasks with oracles and golden diffs, before the verifier gate."""

from __future__ import annotations

from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.stages.ontology.artifact import OntologyArtifact
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.tasks.artifact import TaskSetArtifact
from envforge.stages.tasks.synthesize import synthesize_tasks
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.tooltests.artifact import ToolTestArtifact

SPARE = 1.25
"""Synthesize this many times the requested count, so the gate can drop some and still meet it."""


class TaskInputs(StageInputs):
    blueprint: BlueprintArtifact
    ontology: OntologyArtifact
    toolgraph: ToolGraphArtifact
    state: StateArtifact
    tooltests: ToolTestArtifact


def admitted_tools(tooltests: ToolTestArtifact) -> set[str]:
    """All that tasks are made of the tool tests: which tools passed."""
    return tooltests.report.admitted()


def build(inputs: TaskInputs, config: GenerateConfig) -> TaskSetArtifact:
    requested = config.gated_tasks
    synthesis = synthesize_tasks(
        inputs.blueprint.blueprint,
        inputs.ontology.ontology,
        inputs.toolgraph.toolgraph,
        inputs.state.database,
        admitted_tools(inputs.tooltests),
        count=round(requested * SPARE) + 1,
        seed=config.seed,
    )
    return TaskSetArtifact(
        requested=requested,
        found=synthesis.found,
        unreached=synthesis.unreached,
        unexercised=synthesis.unexercised,
        tasks=synthesis.tasks,
    )


STAGE = declare_stage(
    "tasks", 22, build, config_fields=("seed", "rows", "gated_tasks"), reads={"tooltests": admitted_tools}
)

"""The `verifiers` stage: emit each task's verifier and keep the tasks whose verifier passes the gate."""

from __future__ import annotations

from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.ir.verification import GateResult
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.pipeline.progress import advance
from envforge.runtime.environment import Environment
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_verifier
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.tasks.artifact import TaskSetArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.verifiers.artifact import VerifierArtifact
from envforge.stages.verifiers.emit import render_verifier
from envforge.stages.verifiers.gate import gate_task

UNRELATED_CANDIDATES = 12


def unrelated_writes(tasks: list[TaskSpec], env: Environment, task: TaskSpec) -> list[ToolCall]:
    """Writes from other tasks, for the `unrelated_write` mutant: the same person's first, since a session acting
    for the person refuses writes to anyone else's rows."""
    own = {call.model_dump_json() for call in task.oracle}
    others = sorted(
        (other for other in tasks if other.id != task.id),
        key=lambda other: other.scenario.person != task.scenario.person,
    )
    calls = [call for other in others for call in other.oracle if env.tools[call.name].kind == "write"]
    return [call for call in calls if call.model_dump_json() not in own][:UNRELATED_CANDIDATES]


class VerifierInputs(StageInputs):
    blueprint: BlueprintArtifact
    toolgraph: ToolGraphArtifact
    state: StateArtifact
    tasks: TaskSetArtifact


def build(inputs: VerifierInputs, config: GenerateConfig) -> VerifierArtifact:
    candidates = inputs.tasks
    env = Environment(inputs.blueprint.blueprint, inputs.toolgraph.toolgraph, inputs.state.database, "")
    session = Session(env)
    accepted: list[TaskSpec] = []
    sources: dict[str, str] = {}
    results: list[GateResult] = []
    for task in candidates.tasks:
        if len(accepted) >= candidates.requested:
            break
        source = render_verifier(task)
        result = gate_task(task, session, load_verifier(source, task.id), unrelated_writes(candidates.tasks, env, task))
        results.append(result)
        if result.accepted:
            accepted.append(task)
            sources[task.id] = source
        advance(len(accepted), candidates.requested, f"accepted ({len(results)} gated)")
    return VerifierArtifact(accepted=accepted, sources=sources, results=results)


STAGE = declare_stage("verifiers", 7, build)

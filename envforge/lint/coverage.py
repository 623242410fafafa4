"""The coverage dry run: the stages up to the verifier gate, in a scratch folder.

With the same rows, tasks and seed, these stages compute what `generate` computes, so the dry run answers
what a full `generate` would warn about (WRITE actions no task makes, tools the tool tests exclude, tasks
the gate drops, a shortfall) without building the apps, the UI tasks or the package.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path
from typing import TypeVar

from envforge.errors import PipelineError
from envforge.ir.base import IRModel
from envforge.ir.blueprint import Blueprint
from envforge.ir.verification import TaskMix
from envforge.package.mix import build_mix
from envforge.package.report import build_report
from envforge.pipeline.artifacts import Artifact, BlueprintArtifact
from envforge.pipeline.dag import AnyStage, GenerateConfig
from envforge.pipeline.runner import run_stages
from envforge.stages.registry import ROOT, STAGES
from envforge.stages.tasks.artifact import TaskSetArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.tooltests.artifact import ToolTestArtifact
from envforge.stages.verifiers.artifact import VerifierArtifact

LAST_STAGE = "verifiers"
"""The gate decides which candidate tasks a package keeps; nothing after it changes which actions are reached."""

ArtifactT = TypeVar("ArtifactT", bound=Artifact)


class Coverage(IRModel):
    """Which WRITE actions the tasks of a dry run reach, and why the others are not."""

    config: GenerateConfig
    """The dry run's counts and seed."""
    tasks_accepted: int
    excluded_tools: dict[str, str]
    """Tool the tool tests left out -> why."""
    dropped: dict[str, int]
    """Gate failure code -> candidate tasks it dropped."""
    mix: TaskMix
    """The report's task mix: tasks per action, and why an action no task makes is missed."""
    shortfall: str
    """Why fewer tasks than asked for were accepted, if so (as `generate` warns it)."""
    seconds: float


def stages_up_to(stages: list[AnyStage], last: str) -> list[AnyStage]:
    """`last` and every stage it needs, in run order."""
    needed = {last}
    for stage in reversed(stages):
        if stage.name in needed:
            needed.update(stage.input_names)
    return [stage for stage in stages if stage.name in needed]


def _artifact(artifacts: dict[str, Artifact], name: str, kind: type[ArtifactT]) -> ArtifactT:
    artifact = artifacts[name]
    if not isinstance(artifact, kind):
        raise PipelineError(f"stage '{name}' made {type(artifact).__name__}, not {kind.__name__}")
    return artifact


def run_coverage(blueprint: Blueprint, config: GenerateConfig) -> Coverage:
    """Run the stages up to the gate for `blueprint` in a scratch folder that is removed afterwards."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="envforge-lint-") as scratch:
        artifacts, _ = run_stages(
            stages_up_to(STAGES, LAST_STAGE), {ROOT: BlueprintArtifact(blueprint=blueprint)}, Path(scratch), config
        )
    graph = _artifact(artifacts, "toolgraph", ToolGraphArtifact).toolgraph
    tools = _artifact(artifacts, "tooltests", ToolTestArtifact).report
    tasks = _artifact(artifacts, "tasks", TaskSetArtifact)
    gated = _artifact(artifacts, LAST_STAGE, VerifierArtifact)
    mix = build_mix(gated.accepted, graph, blueprint, tasks.unreached, tasks.unexercised)
    report = build_report(blueprint.env_id, tasks.requested, tools, gated.results, gated.accepted)
    return Coverage(
        config=config,
        tasks_accepted=len(gated.accepted),
        excluded_tools={tool.tool: tool.reason for tool in report.tools_excluded},
        dropped=report.tasks_dropped,
        mix=mix,
        shortfall=report.shortfall,
        seconds=time.perf_counter() - started,
    )

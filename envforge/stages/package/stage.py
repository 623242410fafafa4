"""The `package` stage: every file of the environment package, assembled by the package module."""

from __future__ import annotations

from envforge.ir.manifest import EnvManifest
from envforge.package import assemble
from envforge.package.mix import build_mix
from envforge.package.report import build_report, ui_summary
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.runtime.environment import dump_blueprint
from envforge.stages.apps.artifact import AppsArtifact
from envforge.stages.ontology.artifact import OntologyArtifact
from envforge.stages.package.artifact import PackageArtifact
from envforge.stages.package.policy import render_policy
from envforge.stages.review.artifact import ReviewArtifact
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.tasks.artifact import TaskSetArtifact, dump_jsonl
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.tooltests.artifact import ToolTestArtifact
from envforge.stages.uitasks.artifact import UITasksArtifact
from envforge.version import __version__

ENTRY_POINTS = {
    "run_task": "envforge run-task {package} TASK_ID --oracle",
    "mcp_stdio": "envforge serve {package} --transport stdio",
    "mcp_http": "envforge serve {package} --transport http",
    "web_app": "envforge serve {package} --app web",
    "phone_app": "envforge serve {package} --app phone",
    "ui_task": "envforge run-task {package} TASK_ID --app phone --oracle",
}


class PackageInputs(StageInputs):
    blueprint: BlueprintArtifact
    ontology: OntologyArtifact
    toolgraph: ToolGraphArtifact
    state: StateArtifact
    tooltests: ToolTestArtifact
    review: ReviewArtifact
    apps: AppsArtifact
    uitasks: UITasksArtifact
    tasks: TaskSetArtifact


def build(inputs: PackageInputs, config: GenerateConfig) -> PackageArtifact:
    spec = inputs.blueprint.blueprint
    reviewed = inputs.review
    tools_report = inputs.tooltests.report
    # The UI tasks are posed for every task the gate accepted; ship those of the tasks the review kept.
    kept = {task.id for task in reviewed.accepted}
    uitasks = UITasksArtifact(
        tasks=[task for task in inputs.uitasks.tasks if task.task_id in kept],
        dropped=[drop for drop in inputs.uitasks.dropped if drop.task_id in kept],
    )
    files: dict[str, bytes] = {
        "blueprint.yaml": dump_blueprint(spec).encode(),
        "policy.md": render_policy(spec).encode(),
        **inputs.ontology.to_files(),
        **inputs.toolgraph.to_files(),
        **{name: data for name, data in inputs.state.to_files().items() if name in ("state.sqlite", "schema.sql")},
        **{name: data for name, data in reviewed.to_files().items() if name.startswith("verifiers/")},
        "tasks.jsonl": dump_jsonl(reviewed.accepted),
        **inputs.apps.to_files(),
        **uitasks.to_files(),
    }
    report = build_report(spec.env_id, config.tasks, tools_report, reviewed.results, reviewed.accepted)
    mix = build_mix(
        reviewed.accepted, inputs.toolgraph.toolgraph, spec, inputs.tasks.unreached, inputs.tasks.unexercised
    )
    report = report.model_copy(update={"ui": ui_summary(uitasks.tasks, uitasks.dropped), "mix": mix})
    tools = inputs.toolgraph.toolgraph.tools
    manifest = EnvManifest(
        env_id=spec.env_id,
        domain=spec.domain,
        title=spec.title,
        envforge_version=__version__,
        seed=config.seed,
        rows=config.rows,
        tasks_requested=config.tasks,
        files={},
        stats={
            "entities": len(spec.entities),
            "relations": len(spec.relations),
            "tools": len(tools),
            "read_tools": sum(tool.kind == "read" for tool in tools),
            "write_tools": sum(tool.kind == "write" for tool in tools),
            "tool_edges": len(inputs.toolgraph.toolgraph.edges),
            "policies": len(spec.policies),
            "personas": len(spec.personas),
            "state_rows": sum(inputs.state.rows.values()),
            "tasks": len(reviewed.accepted),
            "ui_tasks_web": sum(task.app == "web" for task in uitasks.tasks),
            "ui_tasks_phone": sum(task.app == "phone" for task in uitasks.tasks),
            "tools_excluded": len(tools_report.excluded()),
        },
        entry_points=ENTRY_POINTS,
    )
    return PackageArtifact.from_files(assemble(files, manifest, report, reviewed.synthesis))


# 2: report.json carries the rollouts section (null until `envforge validate` fills it). 3: apps/.
# 4: UI tasks (apps/ui_tasks.jsonl, the report's ui section). 5: from the review stage; synthesis.json.
STAGE = declare_stage("package", 10, build, config_fields=("rows", "seed", "tasks"))

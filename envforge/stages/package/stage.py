"""The `package` stage: every file of the environment package, plus its manifest."""

from __future__ import annotations

from collections.abc import Mapping

from envforge import __version__
from envforge.hashing import hash_bytes
from envforge.pipeline.app_artifacts import AppsArtifact, UITasksArtifact
from envforge.pipeline.artifacts import (
    Artifact,
    BlueprintArtifact,
    EnvManifest,
    OntologyArtifact,
    PackageArtifact,
    StateArtifact,
    ToolGraphArtifact,
    dump_json,
    dump_manifest,
)
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.pipeline.task_artifacts import TaskSetArtifact, VerifierArtifact, dump_jsonl
from envforge.pipeline.tooltest_artifacts import ToolTestArtifact
from envforge.runtime.environment import dump_blueprint
from envforge.stages.package.policy import render_policy
from envforge.stages.package.report import build_report, render_summary, ui_summary


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> PackageArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact)
    ontology = need(inputs, "ontology", OntologyArtifact)
    toolgraph = need(inputs, "toolgraph", ToolGraphArtifact)
    state = need(inputs, "state", StateArtifact)
    tools_report = need(inputs, "tooltests", ToolTestArtifact).report
    verified = need(inputs, "verifiers", VerifierArtifact)
    requested = need(inputs, "tasks", TaskSetArtifact).requested
    uitasks = need(inputs, "uitasks", UITasksArtifact)
    spec = blueprint.blueprint
    files: dict[str, bytes] = {
        "blueprint.yaml": dump_blueprint(spec).encode(),
        "policy.md": render_policy(spec).encode(),
        **ontology.to_files(),
        **toolgraph.to_files(),
        **{name: data for name, data in state.to_files().items() if name in ("state.sqlite", "schema.sql")},
        **{name: data for name, data in verified.to_files().items() if name.startswith("verifiers/")},
        "tasks.jsonl": dump_jsonl(verified.accepted),
        **need(inputs, "apps", AppsArtifact).to_files(),
        **uitasks.to_files(),
    }
    report = build_report(spec.env_id, requested, tools_report, verified.results, verified.accepted)
    report = report.model_copy(update={"ui": ui_summary(uitasks.tasks, uitasks.dropped)})
    files["report.json"] = dump_json(report.model_dump(mode="json"))
    files["report.md"] = render_summary(report).encode()
    tools = toolgraph.toolgraph.tools
    manifest = EnvManifest(
        env_id=spec.env_id,
        domain=spec.domain,
        title=spec.title,
        envforge_version=__version__,
        seed=config.seed,
        rows=config.rows,
        tasks_requested=config.tasks,
        files={name: hash_bytes(data) for name, data in sorted(files.items())},
        stats={
            "entities": len(spec.entities),
            "relations": len(spec.relations),
            "tools": len(tools),
            "read_tools": sum(tool.kind == "read" for tool in tools),
            "write_tools": sum(tool.kind == "write" for tool in tools),
            "tool_edges": len(toolgraph.toolgraph.edges),
            "policies": len(spec.policies),
            "personas": len(spec.personas),
            "state_rows": sum(state.rows.values()),
            "tasks": len(verified.accepted),
            "ui_tasks_web": sum(task.app == "web" for task in uitasks.tasks),
            "ui_tasks_phone": sum(task.app == "phone" for task in uitasks.tasks),
            "tools_excluded": len(tools_report.excluded()),
        },
        entry_points={
            "run_task": "envforge run-task {package} TASK_ID --oracle",
            "mcp_stdio": "envforge serve {package} --transport stdio",
            "mcp_http": "envforge serve {package} --transport http",
            "web_app": "envforge serve {package} --app web",
            "phone_app": "envforge serve {package} --app phone",
            "ui_task": "envforge run-task {package} TASK_ID --app phone --oracle",
        },
    )
    files["envforge.yaml"] = dump_manifest(manifest)
    return PackageArtifact(manifest=manifest, files=files)


STAGE = Stage(
    name="package",
    # 2: report.json carries the rollouts section (null until `envforge validate` fills it). 3: apps/.
    # 4: UI tasks (apps/ui_tasks.jsonl, the report's ui section).
    version=4,
    inputs=("blueprint", "ontology", "toolgraph", "state", "tooltests", "tasks", "verifiers", "apps", "uitasks"),
    output=PackageArtifact,
    build=build,
    config_fields=("rows", "seed", "tasks"),
)

"""The `package` stage: every file of the environment package, plus its manifest."""

from __future__ import annotations

from collections.abc import Mapping

import yaml

from envforge import __version__
from envforge.hashing import hash_bytes
from envforge.pipeline.artifacts import (
    Artifact,
    BlueprintArtifact,
    EnvManifest,
    OntologyArtifact,
    PackageArtifact,
    StateArtifact,
    ToolGraphArtifact,
)
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.runtime.environment import dump_blueprint
from envforge.stages.package.policy import render_policy


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> PackageArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact)
    ontology = need(inputs, "ontology", OntologyArtifact)
    toolgraph = need(inputs, "toolgraph", ToolGraphArtifact)
    state = need(inputs, "state", StateArtifact)
    spec = blueprint.blueprint
    files: dict[str, bytes] = {
        "blueprint.yaml": dump_blueprint(spec).encode(),
        "policy.md": render_policy(spec).encode(),
        **ontology.to_files(),
        **toolgraph.to_files(),
        **{name: data for name, data in state.to_files().items() if name in ("state.sqlite", "schema.sql")},
    }
    tools = toolgraph.toolgraph.tools
    manifest = EnvManifest(
        env_id=spec.env_id,
        domain=spec.domain,
        title=spec.title,
        envforge_version=__version__,
        seed=config.seed,
        rows=config.rows,
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
        },
        entry_points={
            "mcp_stdio": "envforge serve {package} --transport stdio",
            "mcp_http": "envforge serve {package} --transport http",
        },
    )
    files["envforge.yaml"] = yaml.safe_dump(manifest.model_dump(mode="json"), sort_keys=False).encode()
    return PackageArtifact(manifest=manifest, files=files)


STAGE = Stage(
    name="package",
    version=1,
    inputs=("blueprint", "ontology", "toolgraph", "state"),
    output=PackageArtifact,
    build=build,
    config_fields=("rows", "seed"),
)

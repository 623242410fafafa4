"""The `apps` stage: the screens of the web and phone apps, and the assets that render them."""

from __future__ import annotations

from pathlib import Path

from envforge.hashing import hash_bytes, hash_json
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.stages.apps.artifact import AppsArtifact
from envforge.stages.apps.spec import build_app_spec
from envforge.stages.ontology.artifact import OntologyArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact

ASSETS = Path(__file__).resolve().parents[2] / "runtime" / "apps" / "assets"
"""Templates and static files of both apps, shipped with envforge and copied into every package."""


def app_assets() -> dict[str, bytes]:
    """`apps/<app>/<path>` -> bytes for every asset file, in a stable order."""
    return {
        f"apps/{path.relative_to(ASSETS).as_posix()}": path.read_bytes()
        for path in sorted(ASSETS.rglob("*"))
        if path.is_file() and "__pycache__" not in path.parts
    }


def assets_fingerprint() -> str:
    return hash_json({name: hash_bytes(data) for name, data in app_assets().items()})


class AppsInputs(StageInputs):
    blueprint: BlueprintArtifact
    ontology: OntologyArtifact
    toolgraph: ToolGraphArtifact


def build(inputs: AppsInputs, config: GenerateConfig) -> AppsArtifact:
    spec = build_app_spec(inputs.blueprint.blueprint, inputs.ontology.ontology, inputs.toolgraph.toolgraph)
    return AppsArtifact(spec=spec, assets=app_assets())


STAGE = declare_stage("apps", 3, build, fingerprint=assets_fingerprint)

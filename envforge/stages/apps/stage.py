"""The `apps` stage: the screens of the web and phone apps, and the assets that render them."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from envforge.hashing import hash_bytes, hash_json
from envforge.pipeline.app_artifacts import AppsArtifact
from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, OntologyArtifact, ToolGraphArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.stages.apps.spec import build_app_spec

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


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> AppsArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact).blueprint
    ontology = need(inputs, "ontology", OntologyArtifact).ontology
    toolgraph = need(inputs, "toolgraph", ToolGraphArtifact).toolgraph
    return AppsArtifact(spec=build_app_spec(blueprint, ontology, toolgraph), assets=app_assets())


STAGE = Stage(
    name="apps",
    version=1,
    inputs=("blueprint", "ontology", "toolgraph"),
    output=AppsArtifact,
    build=build,
    fingerprint=assets_fingerprint,
)

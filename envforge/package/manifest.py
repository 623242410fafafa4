"""`envforge.yaml`: what a package is, and the hash of every file in it."""

from __future__ import annotations

from typing import Literal

import yaml

from envforge.ir.base import IRModel
from envforge.runtime.package_files import parse_manifest

MANIFEST = "envforge.yaml"


class EnvManifest(IRModel):
    """`envforge.yaml`: what a package is, and the hash of every file in it."""

    schema_version: Literal[1] = 1
    env_id: str
    domain: str
    title: str
    envforge_version: str
    seed: int
    rows: int
    tasks_requested: int
    files: dict[str, str]
    """File name -> sha256 of its bytes."""
    stats: dict[str, int]
    entry_points: dict[str, str]


def dump_manifest(manifest: EnvManifest) -> bytes:
    return yaml.safe_dump(manifest.model_dump(mode="json"), sort_keys=False).encode()


def load_manifest(data: bytes | str) -> EnvManifest:
    """The manifest, parsed under the bounded YAML loader's limits (a BlueprintError names the limit crossed)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return EnvManifest.model_validate(parse_manifest(text, MANIFEST))

"""`envforge.yaml`: what a package is, and the hash of every file in it.

The one place that knows the manifest's file name and how it is written and parsed: the package
folder writes it, the runtime opens packages through it, and every other reader asks here.
"""

from __future__ import annotations

from typing import Any, Literal

import yaml

from envforge.ir.base import IRModel
from envforge.ir.bounded_yaml import YamlLimits, load_bounded

MANIFEST = "envforge.yaml"
MANIFEST_LIMITS = YamlLimits(bytes=64 * 1024 * 1024, nodes=2_000_000, depth=8, text=64 * 1024 * 1024)
"""A manifest lists one hash per file: a million tasks' verifiers fit, an alias bomb does not."""


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


def parse_manifest(text: str, file: str) -> Any:
    """The manifest's YAML value, loaded under MANIFEST_LIMITS; a BlueprintError names the limit crossed."""
    return load_bounded(text, file, MANIFEST_LIMITS)


def load_manifest(data: bytes | str) -> EnvManifest:
    """The manifest, parsed under the bounded YAML loader's limits (a BlueprintError names the limit crossed)."""
    text = data.decode("utf-8") if isinstance(data, bytes) else data
    return EnvManifest.model_validate(parse_manifest(text, MANIFEST))


def dump_manifest(manifest: EnvManifest) -> bytes:
    return yaml.safe_dump(manifest.model_dump(mode="json"), sort_keys=False).encode()

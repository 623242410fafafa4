"""The `package` stage's output: every file of the environment package, and its manifest."""

from __future__ import annotations

from typing import Self

from envforge.ir.manifest import MANIFEST, EnvManifest, load_manifest
from envforge.pipeline.artifacts import Artifact


class PackageArtifact(Artifact):
    manifest: EnvManifest
    files: dict[str, bytes]

    def to_files(self) -> dict[str, bytes]:
        return dict(self.files)

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(manifest=load_manifest(files[MANIFEST]), files=files)

"""Typed stage outputs, each stored as a set of files with a content hash; and the DAG's root, the blueprint.

Each stage's own output type lives beside it (`envforge/stages/<stage>/artifact.py`).
"""

from __future__ import annotations

from typing import Self

from envforge.files import dump_json
from envforge.hashing import hash_bytes, hash_json
from envforge.ir.base import IRModel
from envforge.ir.blueprint import Blueprint


class Artifact(IRModel):
    """A stage's output. `to_files` and `from_files` round-trip it exactly."""

    schema_version: int = 1

    def to_files(self) -> dict[str, bytes]:
        raise NotImplementedError

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        raise NotImplementedError

    def content_hash(self) -> str:
        files = self.to_files()
        return hash_json({name: hash_bytes(data) for name, data in sorted(files.items())})


class BlueprintArtifact(Artifact):
    """The validated blueprint, defaults filled in."""

    blueprint: Blueprint

    def to_files(self) -> dict[str, bytes]:
        return {"blueprint.json": dump_json(self.blueprint.model_dump(mode="json"))}

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(blueprint=Blueprint.model_validate_json(files["blueprint.json"]))

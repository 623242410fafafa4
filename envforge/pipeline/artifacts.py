"""Typed stage outputs, each stored as a set of files with a content hash."""

from __future__ import annotations

import json
from typing import Any, ClassVar, Literal, Self

from envforge.hashing import hash_bytes, hash_json
from envforge.ir.base import IRModel
from envforge.ir.blueprint import Blueprint
from envforge.ir.ontology import Ontology, OntologyEntity, OntologyRelation
from envforge.ir.toolspec import ToolGraph


def dump_json(value: Any) -> bytes:
    """Stable, readable JSON bytes (sorted keys, two-space indent, trailing newline)."""
    return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


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


class OntologyArtifact(Artifact):
    """The entity graph, stored as node-link JSON."""

    ontology: Ontology
    _relation_keys: ClassVar[set[str]] = {"source", "target", "key"}

    def to_files(self) -> dict[str, bytes]:
        return {"ontology.json": dump_json(self.ontology.node_link())}

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        data = json.loads(files["ontology.json"])
        entities = [
            OntologyEntity.model_validate({"name": node["id"], **{k: v for k, v in node.items() if k != "id"}})
            for node in data["nodes"]
        ]
        relations = [
            OntologyRelation.model_validate({k: v for k, v in link.items() if k not in cls._relation_keys})
            for link in data["links"]
        ]
        graph = data["graph"]
        return cls(
            ontology=Ontology(domain=graph["domain"], person=graph["person"], entities=entities, relations=relations)
        )


class ToolGraphArtifact(Artifact):
    """Tool specs and dependency edges, the tools in OpenAI/MCP form, and a picture of the graph."""

    toolgraph: ToolGraph
    picture: str
    """The graph rendered as SVG."""

    def to_files(self) -> dict[str, bytes]:
        tools = [
            {
                "name": tool.name,
                "description": tool.description,
                "input_schema": tool.parameters,
                "output_schema": tool.returns,
            }
            for tool in self.toolgraph.tools
        ]
        return {
            "toolgraph.json": dump_json(self.toolgraph.model_dump(mode="json")),
            "tools.json": dump_json({"tools": tools, "openai": [tool.openai_tool() for tool in self.toolgraph.tools]}),
            "toolgraph.svg": self.picture.encode(),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(
            toolgraph=ToolGraph.model_validate_json(files["toolgraph.json"]),
            picture=files["toolgraph.svg"].decode(),
        )


class StateArtifact(Artifact):
    """The initial SQLite database, its DDL and row counts."""

    database: bytes
    ddl: str
    rows: dict[str, int]

    def to_files(self) -> dict[str, bytes]:
        return {
            "state.sqlite": self.database,
            "schema.sql": self.ddl.encode(),
            "state.json": dump_json({"rows": self.rows}),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(
            database=files["state.sqlite"],
            ddl=files["schema.sql"].decode(),
            rows=json.loads(files["state.json"])["rows"],
        )


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
    """`envforge.yaml` bytes: every writer of a manifest goes through here, so the format cannot drift."""
    import yaml

    return yaml.safe_dump(manifest.model_dump(mode="json"), sort_keys=False).encode()


class PackageArtifact(Artifact):
    """The environment package: every file of it, and its manifest."""

    manifest: EnvManifest
    files: dict[str, bytes]

    def to_files(self) -> dict[str, bytes]:
        return dict(self.files)

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        import yaml

        manifest = EnvManifest.model_validate(yaml.safe_load(files["envforge.yaml"]))
        return cls(manifest=manifest, files=files)

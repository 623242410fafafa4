"""The `ontology` stage's output: the entity graph."""

from __future__ import annotations

import json
from typing import ClassVar, Self

from envforge.files import dump_json
from envforge.ir.ontology import Ontology, OntologyEntity, OntologyRelation
from envforge.pipeline.artifacts import Artifact


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

"""The resolved, person-centric entity graph."""

from __future__ import annotations

from typing import Any, Literal

from envforge.ir.base import IRModel
from envforge.ir.blueprint import FieldSpec


class OntologyEntity(IRModel):
    """An entity with everything resolved: key, plural, distance from the person."""

    name: str
    plural: str
    description: str
    key: str
    """Name of the key field."""
    fields: list[FieldSpec]
    is_person: bool
    distance: int
    """Relation hops from the person entity (0 for the person)."""


class OntologyRelation(IRModel):
    """A resolved foreign key."""

    name: str
    child: str
    field: str
    parent: str
    cardinality: Literal["many_to_one", "one_to_one"]
    required: bool
    description: str


class Ontology(IRModel):
    """Entities and relations, ordered so parents come before children."""

    schema_version: Literal[1] = 1
    domain: str
    person: str
    entities: list[OntologyEntity]
    """In creation order: every required parent before its children."""
    relations: list[OntologyRelation]

    def entity(self, name: str) -> OntologyEntity:
        for entity in self.entities:
            if entity.name == name:
                return entity
        raise KeyError(name)

    def node_link(self) -> dict[str, Any]:
        """Node-link JSON (the shape networkx reads with `node_link_graph(..., edges="links")`)."""
        return {
            "directed": True,
            "multigraph": True,
            "graph": {"domain": self.domain, "person": self.person},
            "nodes": [
                {"id": entity.name, **entity.model_dump(mode="json", exclude={"name"})} for entity in self.entities
            ],
            "links": [
                {
                    "source": relation.child,
                    "target": relation.parent,
                    "key": relation.name,
                    **relation.model_dump(mode="json"),
                }
                for relation in self.relations
            ],
        }

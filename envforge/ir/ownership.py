"""Which rows belong to a person: the chain of relations from an entity up to the person entity.

A row belongs to the person its chain of foreign keys (child -> parent, no entity twice) ends at. Where
several chains lead to the person entity, the entity names the one that counts with `owner`.
"""

from __future__ import annotations

from envforge.errors import EnvforgeError
from envforge.ir.blueprint import Blueprint, RelationSpec


class OwnershipError(EnvforgeError, ValueError):
    """Ownership of an entity's rows cannot be determined."""

    def __init__(self, entity: str, message: str) -> None:
        super().__init__(message)
        self.entity = entity


def article(noun: str) -> str:
    return f"{'an' if noun[:1] in 'aeiou' else 'a'} {noun}"


def owner_paths(blueprint: Blueprint) -> dict[str, list[RelationSpec]]:
    """For every entity whose rows belong to a person: the relations from it up to the person entity
    (`[]` for the person entity). Entities no chain leads from (catalog rows) are absent.

    Raises OwnershipError naming the entity where chains part when more than one is left after `owner`
    declarations, or when an `owner` relation does not lead to the person.
    """
    person = blueprint.person
    parents: dict[str, list[RelationSpec]] = {}
    for relation in blueprint.relations:
        parents.setdefault(relation.child, []).append(relation)
    owners = {entity.name: entity.owner for entity in blueprint.entities if entity.owner is not None}

    def chains(entity: str, seen: frozenset[str]) -> list[list[RelationSpec]]:
        if entity == person:
            return [[]]
        found = []
        for relation in parents.get(entity, []):
            if entity in owners and relation.name != owners[entity]:
                continue
            if relation.parent not in seen:
                found += [[relation, *rest] for rest in chains(relation.parent, seen | {relation.parent})]
        return found

    paths: dict[str, list[RelationSpec]] = {person: []}
    for spec in blueprint.entities:
        if spec.name == person:
            continue
        found = chains(spec.name, frozenset({spec.name}))
        if len(found) == 1:
            paths[spec.name] = found[0]
        elif len(found) > 1:
            entity, relations = _parting(found)
            raise OwnershipError(
                entity,
                f"entity '{entity}' belongs to {article(person)} through {len(relations)} relations "
                f"({', '.join(relations)}); set 'owner: <relation>' on entity '{entity}' to the one that makes "
                f"a row the {person}'s",
            )
        elif spec.name in owners:
            raise OwnershipError(
                spec.name,
                f"entity '{spec.name}' has 'owner: {owners[spec.name]}', but no chain of relations leads from it "
                f"through that relation to the person entity '{person}'; name a relation whose parent belongs to "
                f"{article(person)}, or remove 'owner'",
            )
    return paths


def _parting(chains: list[list[RelationSpec]]) -> tuple[str, list[str]]:
    """The entity where the chains first part, and the relations they leave it through (sorted)."""
    at = 0
    while len({chain[at].name for chain in chains}) == 1:
        at += 1
    return chains[0][at].child, sorted({chain[at].name for chain in chains})

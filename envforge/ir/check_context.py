"""What every semantic check of a blueprint shares: the blueprint, its entities, and errors located in its source.

The blueprint's checks (`checks`), its expressions' checks (`expression_checks`) and its invariants' checks
(`invariant_checks`) all take this context, so none of them needs the others to name an entity or fail.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from envforge.errors import BlueprintError, did_you_mean
from envforge.ir.blueprint import Blueprint, EntitySpec
from envforge.ir.locations import Locations, Path_, format_path


def listed(names: Iterable[str]) -> str:
    """Names for a message: `a, b, c`, or `none`."""
    return ", ".join(names) or "none"


class CheckContext:
    """One blueprint under check; `fail` builds a located error."""

    def __init__(self, blueprint: Blueprint, locations: Locations) -> None:
        self.blueprint = blueprint
        self.locations = locations
        self.entities = {entity.name: entity for entity in blueprint.entities}

    def fail(self, path: Path_, message: str) -> BlueprintError:
        return BlueprintError(message, file=self.locations.file, line=self.locations.line(path), path=format_path(path))

    def unique(self, names: Sequence[str], path: Path_, key: str, what: str) -> None:
        seen: dict[str, int] = {}
        for index, name in enumerate(names):
            if name in seen:
                first = self.locations.line((*path, seen[name], key))
                where = f" (first declared on line {first})" if first is not None else ""
                raise self.fail((*path, index, key), f"duplicate {what} '{name}'{where}; give each {what} its own name")
            seen[name] = index

    def entity(self, name: str, path: Path_) -> EntitySpec:
        entity = self.entities.get(name)
        if entity is None:
            hint = did_you_mean(name, self.entities) or f"; known entities: {', '.join(self.entities)}"
            raise self.fail(path, f"unknown entity '{name}'{hint}")
        return entity

    def field(self, entity: EntitySpec, name: str, path: Path_) -> None:
        names = [field.name for field in entity.fields]
        if name not in names:
            hint = did_you_mean(name, names) or f"; its fields are {listed(names)}"
            raise self.fail(path, f"entity '{entity.name}' has no field '{name}'{hint}")

"""How many rows each entity gets, and the declared catalogue rows that seeding starts from and must keep.

An entity with a `catalogue` has exactly its declared rows at any row count, on top of the requested rows, which
the other entities share by their `rows` weights: the catalogue is the domain's, not the seed's size, so a small
world (`--rows 60`) still has customers, slots and orders beside a shop's 40 products. Declared values are seeded as written; the invariants
may not change one (the blueprint's checks refuse the fields they always make, so a change here means a declared
value broke a rule).
"""

from __future__ import annotations

from typing import Any

from envforge.errors import BlueprintError
from envforge.ir.blueprint import Blueprint, EntitySpec
from envforge.ir.invariants import invariant_field
from envforge.ir.ontology import Ontology
from envforge.ir.row_budget import planned_rows

Row = dict[str, Any]


def row_counts(ontology: Ontology, blueprint: Blueprint, total: int) -> dict[str, int]:
    """The planned rows (`planned_rows`), each one-to-one child at most as many as its parent."""
    counts = planned_rows(blueprint, total)
    fixed = {entity.name: len(entity.catalogue) for entity in blueprint.entities if entity.catalogue}
    for relation in ontology.relations:
        if relation.cardinality != "one_to_one":
            continue
        if relation.child in fixed and counts[relation.parent] < fixed[relation.child]:
            raise BlueprintError(
                f"entity '{relation.child}' declares {fixed[relation.child]} catalogue rows, but relation "
                f"'{relation.name}' gives each its own {relation.parent} and {total} rows make only "
                f"{counts[relation.parent]}; seed more rows or declare fewer"
            )
        counts[relation.child] = min(counts[relation.child], counts[relation.parent])
    return counts


def declared_rows(entity: EntitySpec) -> list[Row]:
    """The values each catalogue row declares, as the state stores them (an amount as a float, like a generated
    one)."""
    decimal = {field.name for field in entity.fields if field.type in ("number", "money")}
    return [
        {name: float(value) if name in decimal and value is not None else value for name, value in row.items()}
        for row in entity.catalogue
    ]


def check_declared(blueprint: Blueprint, tables: dict[str, list[Row]]) -> None:
    """Raise when seeding changed a declared value: an invariant that sets the field did not hold for it."""
    for index, spec in enumerate(blueprint.entities):
        if not spec.catalogue:
            continue
        for at, (row, seeded) in enumerate(zip(declared_rows(spec), tables[spec.name], strict=True)):
            for name, value in row.items():
                if seeded[name] == value:
                    continue
                rules = [
                    repr(invariant.id)
                    for invariant in blueprint.invariants
                    if invariant.entity == spec.name and invariant_field(invariant) == name
                ]
                which = f"invariant {' or '.join(rules)}" if rules else "an invariant"
                raise BlueprintError(
                    f"catalogue row {at + 1} of '{spec.name}' declares {name} {value!r}, but {which} does not hold "
                    f"for it and the seed made it {seeded[name]!r}; declare a value for which the invariant holds",
                    path=f"entities[{index}].catalogue[{at}].{name}",
                )

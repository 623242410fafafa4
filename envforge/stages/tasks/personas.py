"""Who plays each person: one of the personas whose `fits` holds on the person's row, picked by a seeded hash.

A persona's condition sees the person's row under the person entity's name, `today` and `now`, and in a fused
world the same human's records in the other domains under their entity names. A person no persona fits asks no
task: a toddler does not call the clinic, and no persona of a bank fits a child.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envforge.errors import BlueprintError
from envforge.hashing import hash_json
from envforge.ir.blueprint import Blueprint, PersonaSpec
from envforge.ir.expressions import CompiledExpression, ExpressionError, compile_expression

Row = dict[str, Any]
DEFAULT_PERSONA = PersonaSpec(name="customer", description="A regular user.", traits=[], knows=[])
"""The user of a blueprint that declares no persona."""


class PersonaCast:
    """The personas of one seeded world, and which of them fit each person."""

    def __init__(self, blueprint: Blueprint, rows: Mapping[str, Mapping[str, Row]], seed: int) -> None:
        self.person = blueprint.person
        self.personas = blueprint.personas or [DEFAULT_PERSONA]
        self.seed = seed
        self.conditions: list[CompiledExpression | None] = [
            None if persona.fits is None else compile_expression(persona.fits) for persona in self.personas
        ]
        self.rows = rows[blueprint.person]
        self.clock = {"today": blueprint.clock.date().isoformat(), "now": blueprint.clock.isoformat()}
        linked = set(blueprint.linked_persons)
        self.linked: dict[str, dict[Any, Row]] = {
            relation.child: {row[relation.field]: row for row in rows[relation.child].values()}
            for relation in blueprint.relations
            if relation.parent == blueprint.person and relation.child in linked
        }
        self._fitting: dict[str, list[PersonaSpec]] = {}

    def fitting(self, person: str) -> list[PersonaSpec]:
        """The personas whose condition holds for `person`, in declaration order."""
        found = self._fitting.get(person)
        if found is None:
            scope: dict[str, Any] = {**self.clock, self.person: self.rows[person]}
            for entity, by_person in self.linked.items():
                scope[entity] = by_person.get(person)
            found = [
                persona
                for persona, condition in zip(self.personas, self.conditions, strict=True)
                if condition is None or _holds(condition, scope)
            ]
            self._fitting[person] = found
        return found

    def persona_of(self, person: str) -> PersonaSpec:
        """The persona that plays `person`: one of those that fit, the same for the same seed."""
        fitting = self.fitting(person)
        if not fitting:
            raise KeyError(person)
        return fitting[int(hash_json([self.seed, person])[:8], 16) % len(fitting)]

    def players(self, persons: list[str]) -> list[str]:
        """`persons` that some persona fits, in their order; a BlueprintError when there are persons but none fits."""
        kept = [person for person in persons if self.fitting(person)]
        if persons and not kept:
            conditions = "; ".join(f"{p.name}: {p.fits}" for p in self.personas if p.fits is not None)
            raise BlueprintError(
                f"no {self.person} row fits any persona ({conditions}), so no task has a user; widen a persona's "
                "'fits', or the generators of the fields it reads"
            )
        return kept


def _holds(condition: CompiledExpression, scope: Mapping[str, Any]) -> bool:
    # A condition that cannot be evaluated on a row (an empty date of birth) does not fit it.
    try:
        return bool(condition(scope))
    except ExpressionError:
        return False

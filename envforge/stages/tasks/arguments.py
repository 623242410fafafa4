"""Values a user would give for a free-text argument: drawn from the field the action writes it into, so a
pharmacy is a pharmacy's name and a seat is a seat, not a random word."""

from __future__ import annotations

import random
import re
from typing import Any

from envforge.ir.blueprint import ActionSpec, Blueprint, FieldSpec, InsertEffect, UpdateEffect

Row = dict[str, Any]
CANDIDATES = 3


def written_fields(blueprint: Blueprint, action: ActionSpec, name: str) -> list[tuple[str, FieldSpec]]:
    """The (entity, field) pairs into which `action` writes its argument `name`."""
    aliases = {binding.name: binding.entity for binding in action.bind}
    uses = re.compile(rf"\bargs\.{re.escape(name)}\b")
    found: list[tuple[str, str]] = []
    for effect in action.effects:
        if isinstance(effect, InsertEffect):
            aliases[effect.alias] = effect.insert
            found += [(effect.insert, field) for field, expression in effect.values.items() if uses.search(expression)]
        elif isinstance(effect, UpdateEffect) and effect.update in aliases:
            entity = aliases[effect.update]
            found += [(entity, field) for field, expression in effect.set.items() if uses.search(expression)]
    pairs = []
    for entity, field in found:
        spec = next((f for f in blueprint.entity(entity).fields if f.name == field), None)
        if spec is not None:
            pairs.append((entity, spec))
    return pairs


def seeded_values(
    rows: dict[str, dict[str, Row]], targets: list[tuple[str, FieldSpec]], rng: random.Random, max_length: int
) -> list[Any]:
    """Up to three values the seeded state already holds in a written field that is not unique (a new value of a
    unique field, such as an email, must not be someone else's)."""
    for entity, field in targets:
        if field.unique or field.type not in ("string", "text"):
            continue
        seen = sorted(
            {str(row[field.name]) for row in rows.get(entity, {}).values() if row.get(field.name) not in (None, "")}
        )
        usable = [value for value in seen if len(value) <= max_length]
        if usable:
            rng.shuffle(usable)
            return usable[:CANDIDATES]
    return []

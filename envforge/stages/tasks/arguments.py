"""Values a user would give for an argument that names no row. Free text is drawn from the field the action
writes it into, so a pharmacy is a pharmacy's name and a seat is a seat, not a random word."""

from __future__ import annotations

import random
import re
from typing import Any

from faker import Faker

from envforge.fakedata import faker_method_for
from envforge.ir.blueprint import ActionSpec, Blueprint, FieldSpec, InsertEffect, UpdateEffect
from envforge.ir.toolspec import ToolSpec
from envforge.stages.tasks.world import World

CANDIDATES = 3
NUMBER_CHOICES = (1, 2, 3, 5, 10, 20, 25, 40, 50, 100, 250, 500, 1000, 2500, 10000, 30000)


def plain_values(
    blueprint: Blueprint, world: World, faker: Faker, tool: ToolSpec, name: str, rng: random.Random
) -> list[Any]:
    """Up to three values for the argument `name` of `tool`: its enum's, the blueprint's examples (for a number,
    those in its range), round numbers in its range, today's date, or what the seeded state (or else `faker`)
    holds for the field it writes."""
    schema = tool.parameters["properties"][name]
    if "enum" in schema:
        values = list(schema["enum"])
        rng.shuffle(values)
        return values[:CANDIDATES]
    kind = schema.get("type")
    action = blueprint.action(tool.name)
    examples: list[Any] = next(param.examples for param in action.params if param.name == name)
    if kind in ("integer", "number"):
        low, high = schema.get("minimum", 1), schema.get("maximum", 1000)
        picks = [value for value in examples or NUMBER_CHOICES if low <= value <= high] or [low]
        rng.shuffle(picks)
        return picks[:CANDIDATES]
    if kind == "boolean":
        return [True, False]
    if schema.get("format") == "date":
        return [blueprint.clock.date().isoformat()]
    limit = schema.get("maxLength", 2000)
    if examples:
        return rng.sample(examples, min(CANDIDATES, len(examples)))
    targets = written_fields(blueprint, action, name)
    seeded = seeded_values(world, targets, rng, limit)
    if seeded:
        return seeded
    field = targets[0][1] if targets else None
    hint = faker_method_for(field.name if field else name, long_text=field is not None and field.type == "text")
    method = getattr(faker, hint, faker.word)
    return [str(method())[:limit]]


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


def seeded_values(world: World, targets: list[tuple[str, FieldSpec]], rng: random.Random, max_length: int) -> list[Any]:
    """Up to three values the seeded state already holds in a written field that is not unique (a new value of a
    unique field, such as an email, must not be someone else's)."""
    for entity, field in targets:
        if field.unique or field.type not in ("string", "text"):
            continue
        usable = list(world.distinct_texts(entity, field.name, max_length))
        if usable:
            rng.shuffle(usable)
            return usable[:CANDIDATES]
    return []

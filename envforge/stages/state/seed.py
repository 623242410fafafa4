"""Seed data: realistic, foreign-key-consistent rows from a seeded RNG."""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from datetime import datetime, timedelta
from functools import partial
from typing import Any

from faker import Faker

from envforge.errors import BlueprintError
from envforge.fakedata import faker_method_for
from envforge.hashing import hash_json
from envforge.ir.blueprint import Blueprint, FieldSpec, ValueGenerator
from envforge.ir.invariant_rows import World
from envforge.ir.ontology import Ontology, OntologyEntity
from envforge.stages.state.catalogue import Row, check_declared, declared_rows, row_counts
from envforge.stages.state.satisfy import Satisfier

KEY_LOW, KEY_HIGH = 100_000, 800_000
OPTIONAL_REF_NULL_RATE = 0.15
UNIQUE_RETRIES = 50


class _Seeder:
    def __init__(self, blueprint: Blueprint, ontology: Ontology, seed: int) -> None:
        self.blueprint = blueprint
        self.ontology = ontology
        self.seed = seed
        self.clock = blueprint.clock
        self.faker = Faker("en_US")
        self.tables: dict[str, list[Row]] = {}
        self.by_key: dict[str, dict[str, Row]] = {}
        self.relations = {(r.child, r.field): r for r in ontology.relations}

    def rng(self, *parts: str) -> random.Random:
        # One stream per (entity, field): editing one field never reshuffles the others.
        return random.Random(hash_json([self.seed, *parts]))

    def entity_rows(self, entity: OntologyEntity, count: int) -> list[Row]:
        rows: list[Row] = [{} for _ in range(count)]
        key_rng = self.rng(entity.name, entity.key)
        prefix = next(f.prefix for f in entity.fields if f.type == "id") or entity.name[:3].upper()
        for row, number in zip(rows, sorted(key_rng.sample(range(KEY_LOW, KEY_HIGH), count)), strict=True):
            row[entity.key] = f"{prefix}-{number:06d}"
        fields = [field for field in entity.fields if field.type != "id"]
        # Copies read a parent through a ref field, so refs are filled first.
        fields.sort(
            key=lambda field: (
                field.type != "ref",
                field.generator is not None and field.generator.copy_from is not None,
            )
        )
        declared = declared_rows(self.blueprint.entity(entity.name)) or [{} for _ in rows]
        for field in fields:
            self.fill(entity, field, rows, declared)
        return rows

    def fill(self, entity: OntologyEntity, field: FieldSpec, rows: list[Row], declared: list[Row]) -> None:
        """Fill one field of every row: a catalogue row's declared value as written, any other drawn (a unique
        field's draws avoid the declared values)."""
        rng = self.rng(entity.name, field.name)
        if field.type == "ref":
            self.fill_ref(entity, field, rows, rng)
            return
        generator = field.generator or ValueGenerator()
        if generator.copy_from:
            for row in rows:
                self.copy_value(entity.name, field, row)
            return
        make = self.maker(entity, field, generator, rng)
        seen: set[Any] = {values[field.name] for values in declared if field.name in values}
        for row, values in zip(rows, declared, strict=True):
            if field.name in values:
                row[field.name] = values[field.name]
                continue
            if field.nullable and generator.null_rate and rng.random() < generator.null_rate:
                row[field.name] = None
                continue
            value = make()
            if field.unique:
                value = self.unique_value(entity, field, value, seen, make)
            row[field.name] = value

    def copy_value(self, entity: str, field: FieldSpec, row: Row) -> None:
        if field.generator is None or field.generator.copy_from is None:
            return
        ref_field, parent_field = field.generator.copy_from.split(".")
        parent = self.relations[(entity, ref_field)].parent
        source = self.by_key[parent].get(row[ref_field])
        row[field.name] = None if source is None else source[parent_field]

    def copy_row(self, entity: str, row: Row) -> None:
        """Refresh every copied field of `row` (after its ref fields changed)."""
        for field in self.ontology.entity(entity).fields:
            self.copy_value(entity, field, row)

    def copy_field(self, entity: str, name: str) -> None:
        """Refresh one copied field on every row (after the field it copies was derived)."""
        field = next(field for field in self.ontology.entity(entity).fields if field.name == name)
        for row in self.tables[entity]:
            self.copy_value(entity, field, row)

    def draw(self, entity: str, name: str, stream: str) -> Callable[[], Any]:
        """A fresh draw of one field from its generator, in its own stream (no null rate, no uniqueness)."""
        spec = self.ontology.entity(entity)
        field = next(field for field in spec.fields if field.name == name)
        return self.maker(spec, field, field.generator or ValueGenerator(), self.rng(entity, name, stream))

    def unique_value(
        self, entity: OntologyEntity, field: FieldSpec, value: Any, seen: set[Any], make: Callable[[], Any]
    ) -> Any:
        for _ in range(UNIQUE_RETRIES):
            if value not in seen:
                break
            value = make()
        else:
            raise BlueprintError(
                f"cannot make enough distinct values for unique field '{entity.name}.{field.name}'; widen its generator or lower --rows"
            )
        seen.add(value)
        return value

    def fill_ref(self, entity: OntologyEntity, field: FieldSpec, rows: list[Row], rng: random.Random) -> None:
        relation = self.relations[(entity.name, field.name)]
        if relation.parent not in self.tables:
            # An optional link that would close a cycle: its parent rows come later, so it starts empty.
            for row in rows:
                row[field.name] = None
            return
        parents = [row[self.ontology.entity(relation.parent).key] for row in self.tables[relation.parent]]
        if relation.cardinality == "one_to_one":
            chosen: list[Any] = rng.sample(parents, len(rows))
        else:
            chosen = [rng.choice(parents) for _ in rows]
        for row, parent in zip(rows, chosen, strict=True):
            null = not relation.required and rng.random() < OPTIONAL_REF_NULL_RATE
            row[field.name] = None if null else parent

    def maker(
        self, entity: OntologyEntity, field: FieldSpec, generator: ValueGenerator, rng: random.Random
    ) -> Callable[[], Any]:
        if generator.choices is not None:
            choices, weights = list(generator.choices), generator.weights
            return lambda: rng.choices(choices, weights=weights)[0]
        if generator.pattern is not None:
            pattern = generator.pattern
            return lambda: "".join(
                rng.choice(string.digits) if c == "#" else rng.choice(string.ascii_uppercase) if c == "?" else c
                for c in pattern
            )
        if generator.faker is not None:
            return self.faker_maker(entity, field, generator.faker, dict(generator.args))
        if field.type in ("string", "text") and generator.range is None:
            return self.faker_maker(entity, field, faker_method_for(field.name, long_text=field.type == "text"), {})
        return self.range_maker(field, generator, rng)

    def faker_maker(
        self, entity: OntologyEntity, field: FieldSpec, method: str, args: dict[str, Any]
    ) -> Callable[[], Any]:
        function = getattr(self.faker, method, None)
        if not callable(function):
            raise BlueprintError(
                f"'{entity.name}.{field.name}': Faker has no generator '{method}'; use one such as name, email, city, sentence"
            )
        self.faker.seed_instance(hash_json([self.seed, entity.name, field.name, "faker"]))
        limit = field.max_length

        def make() -> Any:
            value = function(**args)
            text = value if isinstance(value, str) else str(value)
            return text[:limit] if limit else text

        return make

    def range_maker(self, field: FieldSpec, generator: ValueGenerator, rng: random.Random) -> Callable[[], Any]:
        kind = field.type
        if kind == "enum":
            values = list(field.values or [])
            return lambda: rng.choice(values)
        if kind == "boolean":
            return lambda: rng.random() < 0.5
        if kind in ("date", "datetime"):
            low, high = generator.range or (-365.0, 0.0)
            clock: datetime = self.clock
            if kind == "date":
                return lambda: (clock + timedelta(days=rng.randint(int(low), int(high)))).date().isoformat()
            return lambda: (
                (clock + timedelta(seconds=rng.randint(int(low * 86400), int(high * 86400))))
                .replace(microsecond=0)
                .isoformat()
            )
        default_high = 100.0 if kind == "integer" else 1000.0
        low, high = generator.range or (
            field.minimum or 0.0,
            field.maximum if field.maximum is not None else default_high,
        )
        if field.minimum is not None:
            low = max(low, field.minimum)
        if field.maximum is not None:
            high = min(high, field.maximum)
        if kind == "integer":
            return lambda: rng.randint(int(low), int(high))
        if kind in ("money", "number"):
            return lambda: round(rng.uniform(low, high), 2)
        return lambda: str(rng.randint(int(low), int(high)))

    def run(self, counts: dict[str, int]) -> dict[str, list[Row]]:
        satisfier = Satisfier(self.blueprint, World(self.blueprint, self.tables), self.draw, self.rng)
        for entity in self.ontology.entities:
            rows = self.entity_rows(entity, counts[entity.name])
            self.tables[entity.name] = rows
            self.by_key[entity.name] = {row[entity.key]: row for row in rows}
            satisfier.satisfy_rows(entity.name, rows, partial(self.copy_row, entity.name))
        if self.blueprint.invariants:
            satisfier.derive(self.copy_field)
            satisfier.verify()
        check_declared(self.blueprint, self.tables)
        return self.tables


def seed_rows(blueprint: Blueprint, ontology: Ontology, *, rows: int, seed: int) -> dict[str, list[Row]]:
    """Rows per entity, in the ontology's creation order, deterministic in (blueprint, rows, seed)."""
    return _Seeder(blueprint, ontology, seed).run(row_counts(ontology, blueprint, rows))

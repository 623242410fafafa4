"""Make seeded rows satisfy the blueprint's invariants.

Row-level invariants (state rules, conditional values, temporal order) are met right after an entity's
rows are made, when their parents exist; derived values once every row exists, followed by the copies
that read them. Everything draws from seeded streams, so the result stays deterministic.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, datetime, timedelta
from typing import Any, assert_never

from envforge.errors import BlueprintError
from envforge.ir.blueprint import Blueprint
from envforge.ir.derivations import DerivationCycleError, derivation_order, invariant_reads
from envforge.ir.expressions import ExpressionError
from envforge.ir.invariant_rows import Row, World
from envforge.ir.invariants import (
    ChildCount,
    ConditionalValue,
    DerivedValue,
    InvariantSpec,
    StateRule,
    TemporalOrder,
    invariant_field,
)
from envforge.ir.violations import (
    Compiled,
    compile_invariant,
    date_bounds,
    date_order,
    derived_value,
    holds,
    violating_rows,
)
from envforge.stages.state.counts import ChildMover

RULE_DRAWS = 200
"""Draws of a rule's `seed_by` field per row before the rule is declared unsatisfiable."""

Maker = Callable[[str, str, str], Callable[[], Any]]
"""(entity, field, stream) -> a function that draws one value of the field from its generator."""
Streams = Callable[..., random.Random]
"""A random stream named by its parts."""


class Satisfier:
    def __init__(self, blueprint: Blueprint, world: World, make: Maker, stream: Streams) -> None:
        self.blueprint = blueprint
        self.world = world
        self.make = make
        self.stream = stream
        self.clock = blueprint.clock
        self.relations = {(r.child, r.field): r for r in blueprint.relations}
        self.fields = {(e.name, f.name): f for e in blueprint.entities for f in e.fields}

    def satisfy_rows(self, entity: str, rows: list[Row], copy: Callable[[Row], None]) -> None:
        """Meet every row-level invariant of `entity`, in declaration order, then the child counts of its parents
        that count its rows; `copy` refreshes a row's copies."""
        for invariant in self.blueprint.invariants:
            if invariant.entity != entity:
                continue
            match invariant:
                case StateRule():
                    if (entity, invariant.seed_by) in self.relations:
                        self.choose_parents(compile_invariant(invariant), invariant, rows, copy)
                    else:
                        self.redraw(compile_invariant(invariant), invariant, rows)
                case ConditionalValue():
                    self.fill_conditional(compile_invariant(invariant), invariant, rows)
                case TemporalOrder():
                    self.bound_dates(compile_invariant(invariant), invariant, rows)
                case DerivedValue() | ChildCount():
                    # Derived once every row exists; a child count is met when the children are seeded.
                    continue
                case _:
                    assert_never(invariant)
        for invariant in self.blueprint.invariants:
            if isinstance(invariant, ChildCount) and self.world.relations[invariant.over].child == entity:
                rng = self.stream(invariant.entity, invariant.over, "invariant", invariant.id)
                ChildMover(self.blueprint, self.world, rng, invariant, copy).run()

    def key(self, invariant: Any, row: Row) -> Any:
        return row[self.world.keys[invariant.entity]]

    def choose_parents(self, compiled: Compiled, rule: StateRule, rows: list[Row], copy: Callable[[Row], None]) -> None:
        relation = self.relations[(rule.entity, rule.seed_by)]
        exclusive = rule.distinct or relation.cardinality == "one_to_one"
        used: set[Any] = set()
        failing: list[Row] = []
        for row in rows:
            value = row[rule.seed_by]
            if holds(compiled, self.world, row) and not (exclusive and value is not None and value in used):
                used.add(value)
            else:
                failing.append(row)
        if not failing:
            return
        parent_key = self.world.keys[relation.parent]
        parents = [parent[parent_key] for parent in self.world.tables[relation.parent]]
        rng = self.stream(rule.entity, rule.seed_by, "invariant", rule.id)
        own = sorted(
            {ref.attr for ref in compiled.main.references if ref.root == rule.entity and ref.attr}
            if compiled.main
            else set()
        )
        others = sorted({path.rpartition(".")[2] for path in rule.parents.values() if "." not in path} - {rule.seed_by})
        candidates: dict[tuple[Any, ...], list[Any]] = {}
        for row in failing:
            group = tuple(row.get(name) for name in [*own, *others] if name != rule.seed_by)
            found = candidates.get(group)
            if found is None:
                found = [parent for parent in parents if self.fits(compiled, row, rule.seed_by, parent, copy)]
                rng.shuffle(found)
                candidates[group] = found
            if exclusive:
                while found and found[-1] in used:
                    found.pop()
                chosen = found.pop() if found else None
            else:
                chosen = rng.choice(found) if found else None
            if chosen is None:
                raise BlueprintError(
                    f"invariant '{rule.id}' cannot hold for {rule.entity} {self.key(rule, row)}: no "
                    f"{'unused ' if exclusive else ''}{relation.parent} row satisfies it; seed more {relation.parent} "
                    f"rows for which it holds (their generators and 'rows'), or relax its 'require'"
                )
            used.add(chosen)
            row[rule.seed_by] = chosen
            copy(row)

    def fits(self, compiled: Compiled, row: Row, ref: str, parent: Any, copy: Callable[[Row], None]) -> bool:
        trial = {**row, ref: parent}
        copy(trial)
        return holds(compiled, self.world, trial)

    def redraw(self, compiled: Compiled, rule: StateRule, rows: list[Row]) -> None:
        draw = self.make(rule.entity, rule.seed_by, f"invariant:{rule.id}")
        for row in rows:
            for _ in range(RULE_DRAWS):
                if holds(compiled, self.world, row):
                    break
                row[rule.seed_by] = draw()
            else:
                raise BlueprintError(
                    f"invariant '{rule.id}' cannot hold for {rule.entity} {self.key(rule, row)}: {RULE_DRAWS} draws "
                    f"of '{rule.seed_by}' never satisfied it; let the generator of '{rule.entity}.{rule.seed_by}' "
                    "make values for which it holds, or relax its 'require'"
                )

    def fill_conditional(self, compiled: Compiled, invariant: ConditionalValue, rows: list[Row]) -> None:
        draw = self.make(invariant.entity, invariant.present, f"invariant:{invariant.id}")
        condition = compiled.main
        for row in rows:
            present = condition is not None and bool(condition(self.world.scope(invariant, row)))
            if not present:
                row[invariant.present] = None
            elif row[invariant.present] is None:
                row[invariant.present] = draw()

    def bound_dates(self, compiled: Compiled, invariant: TemporalOrder, rows: list[Row]) -> None:
        field = self.fields[(invariant.entity, invariant.date)]
        generator = field.generator
        span = generator.range if generator is not None and generator.range is not None else (-365.0, 0.0)
        unit = 86400 if field.type == "datetime" else 1
        low_gen, high_gen = int(span[0] * unit), int(span[1] * unit)
        rng = self.stream(invariant.entity, invariant.date, "invariant", invariant.id)
        for row in rows:
            value = row.get(invariant.date)
            if value is None or holds(compiled, self.world, row):
                continue
            low, high = date_bounds(compiled, self.world.scope(invariant, row))
            if low is not None and high is not None and date_order(low, high) > 0:
                raise BlueprintError(
                    f"invariant '{invariant.id}' cannot hold for {invariant.entity} {self.key(invariant, row)}: "
                    f"'{invariant.date}' must be on or after {low} and on or before {high}; declare rules that keep "
                    "these bounds apart (e.g. a state rule on the dates they come from)"
                )
            first = self.offset(low, unit, upward=True) if low is not None else None
            last = self.offset(high, unit, upward=False) if high is not None else None
            start = max(low_gen, first) if first is not None else low_gen
            end = min(high_gen, last) if last is not None else high_gen
            if start > end:
                # The generator's range misses the bounds: draw within the bounds alone.
                start, end = (first if first is not None else end, last if last is not None else start)
            row[invariant.date] = self.at(rng.randint(start, end), unit)

    def offset(self, value: Any, unit: int, *, upward: bool) -> int:
        """Days (or seconds, for datetimes) from the clock to the date `value`."""
        text = str(value)
        if unit == 1:
            return (date.fromisoformat(text[:10]) - self.clock.date()).days
        moment = datetime.fromisoformat(text) if len(text) > 10 else datetime.fromisoformat(text + "T00:00:00")
        seconds = (moment - self.clock).total_seconds()
        return int(seconds) + (1 if upward and seconds != int(seconds) else 0)

    def at(self, offset: int, unit: int) -> str:
        if unit == 1:
            return (self.clock.date() + timedelta(days=offset)).isoformat()
        return (self.clock + timedelta(seconds=offset)).replace(microsecond=0).isoformat()

    def derive(self, copy_field: Callable[[str, str], None]) -> None:
        """Compute every derived value after all rows exist, and refresh the copies that read one."""
        try:
            order = derivation_order(self.blueprint)
        except DerivationCycleError as cycle:
            raise BlueprintError(f"derived values read each other in a cycle ({cycle}); break the cycle") from None
        compiled = {
            (invariant.entity, invariant.derive): compile_invariant(invariant)
            for invariant in self.blueprint.invariants
            if isinstance(invariant, DerivedValue)
        }
        self.world.forget_children()
        for entity, name in order:
            found = compiled.get((entity, name))
            if found is None:
                copy_field(entity, name)
                continue
            # All values first: a row's derivation may read its own field or a sibling's.
            rows = self.world.tables[entity]
            values = [self.derived(found, row) for row in rows]
            if self.fields[(entity, name)].type == "money":
                values = [round(value, 2) if isinstance(value, float) else value for value in values]
            for row, value in zip(rows, values, strict=True):
                row[name] = value

    def derived(self, compiled: Compiled, row: Row) -> Any:
        try:
            return derived_value(compiled, self.world, row)
        except ExpressionError as exc:
            invariant = compiled.invariant
            raise BlueprintError(
                f"invariant '{invariant.id}' cannot be computed for {invariant.entity} {self.key(invariant, row)}: "
                f"{exc}; make the fields it reads non-empty (a conditional value may empty them) or guard with "
                "'is not None'"
            ) from None

    def verify(self) -> None:
        """Raise when a seeded row still breaks an invariant (a later one undid an earlier one).

        Only invariants that something changed after they were met are counted again: those reading a field a
        derivation, a copy or a later invariant of the same entity sets, and derivations that read themselves.
        """
        changed = set(derivation_order(self.blueprint))
        changed |= {
            (entity.name, field.name)
            for entity in self.blueprint.entities
            for field in entity.fields
            if field.generator is not None and field.generator.copy_from is not None
        }
        later: set[tuple[str, str]] = set()
        suspects: list[InvariantSpec] = []
        for invariant in reversed(self.blueprint.invariants):
            field = invariant_field(invariant)
            if field is None:
                # A child count is met before the fields its `where` reads are derived, so it is always counted.
                suspects.append(invariant)
                continue
            target = (invariant.entity, field)
            reads = invariant_reads(self.blueprint, invariant)
            if isinstance(invariant, DerivedValue):
                if target in reads:
                    suspects.append(invariant)
            elif (reads | {target}) & (changed | later):
                suspects.append(invariant)
            if not isinstance(invariant, DerivedValue):
                later.add(target)
        for invariant in reversed(suspects):
            compiled = compile_invariant(invariant)
            rows = list(violating_rows(compiled, self.world))
            if rows:
                raise BlueprintError(
                    f"invariant '{invariant.id}' still fails on {len(rows)} {invariant.entity} rows after seeding "
                    f"(e.g. {self.key(invariant, rows[0])}); an invariant declared after it or a derived value changes "
                    "what it reads: declare the invariants that set a field before those that read it"
                )

"""Semantic checks of a blueprint's seed invariants: every entity, field, relation and alias resolves."""

from __future__ import annotations

from typing import assert_never

from envforge.errors import did_you_mean
from envforge.ir.blueprint import EntitySpec, FieldSpec
from envforge.ir.check_context import CheckContext, listed
from envforge.ir.derivations import DerivationCycleError, derivation_order
from envforge.ir.expression_checks import CLOCK_NAMES, ExpressionChecks
from envforge.ir.invariants import (
    ChildCount,
    ConditionalValue,
    DerivedValue,
    InvariantSpec,
    StateRule,
    TemporalOrder,
    Total,
)
from envforge.ir.locations import Path_

DATE_TYPES = ("date", "datetime")


class _InvariantChecker:
    def __init__(self, context: CheckContext, expressions: ExpressionChecks) -> None:
        self.context = context
        self.expressions = expressions
        self.blueprint = context.blueprint
        self.relations = {relation.name: relation for relation in self.blueprint.relations}
        self.parent_of = {(r.child, r.field): r.parent for r in self.blueprint.relations}

    def run(self) -> None:
        invariants = self.blueprint.invariants
        self.context.unique([invariant.id for invariant in invariants], ("invariants",), "id", "invariant")
        for index, invariant in enumerate(invariants):
            self.check(invariant, ("invariants", index))
        try:
            derivation_order(self.blueprint)
        except DerivationCycleError as cycle:
            entity, field = cycle.nodes[0]
            index = next(
                (
                    at
                    for at, invariant in enumerate(invariants)
                    if isinstance(invariant, DerivedValue) and (invariant.entity, invariant.derive) == (entity, field)
                ),
                0,
            )
            raise self.context.fail(
                ("invariants", index),
                f"derived values read each other in a cycle ({cycle}); derive one of them from other fields",
            ) from None

    def check(self, invariant: InvariantSpec, path: Path_) -> None:
        entity = self.context.entity(invariant.entity, (*path, "entity"))
        scope = self.parents(invariant, entity, path)
        match invariant:
            case DerivedValue():
                self.seeded_field(entity, invariant.derive, (*path, "derive"))
                self.check_derived(invariant, scope, path)
            case ConditionalValue():
                where = (*path, "present")
                spec = self.seeded_field(entity, invariant.present, where)
                if not spec.nullable:
                    raise self.context.fail(
                        where,
                        f"'{entity.name}.{spec.name}' is not nullable, so it cannot be empty; add 'nullable: true'",
                    )
                self.expressions.expression(invariant.when, (*path, "when"), scope, [])
            case TemporalOrder():
                where = (*path, "date")
                spec = self.seeded_field(entity, invariant.date, where)
                if spec.type not in DATE_TYPES:
                    raise self.context.fail(
                        where, f"'{entity.name}.{spec.name}' has type '{spec.type}'; name a date or datetime field"
                    )
                if not invariant.not_before and not invariant.not_after:
                    raise self.context.fail(path, "a temporal invariant needs 'not_before' or 'not_after'")
                for side in ("not_before", "not_after"):
                    for index, source in enumerate(getattr(invariant, side)):
                        self.expressions.expression(source, (*path, side, index), scope, [])
            case StateRule():
                where = (*path, "seed_by")
                spec = self.seeded_field(entity, invariant.seed_by, where)
                rule_scope = self.check_totals(invariant.totals, scope, path)
                self.expressions.expression(invariant.require, (*path, "require"), rule_scope, [])
                if invariant.distinct and spec.type != "ref":
                    raise self.context.fail(
                        (*path, "distinct"),
                        f"'distinct' needs a ref field in 'seed_by'; '{spec.name}' is '{spec.type}'",
                    )
                if spec.generator is not None and spec.generator.copy_from is not None:
                    raise self.context.fail(
                        where,
                        f"'{entity.name}.{spec.name}' is copied from its parent; name the ref field it copies through",
                    )
            case ChildCount():
                self.check_count(invariant, entity, scope, path)
            case _:
                assert_never(invariant)

    def seeded_field(self, entity: EntitySpec, name: str, where: Path_) -> FieldSpec:
        """The field the state stage sets for an invariant: one of the entity's, and not its key."""
        self.context.field(entity, name, where)
        spec = next(spec for spec in entity.fields if spec.name == name)
        if spec.type == "id":
            raise self.context.fail(where, f"'{entity.name}.{name}' is the key; name another field")
        return spec

    def check_count(
        self, invariant: ChildCount, entity: EntitySpec, scope: dict[str, EntitySpec | None], path: Path_
    ) -> None:
        child = self.relation(invariant.over, entity, (*path, "over"), one_to_one=False)
        if self.relations[invariant.over].cardinality == "one_to_one" and invariant.at_least > 1:
            raise self.context.fail(
                (*path, "at_least"), f"relation '{invariant.over}' is one_to_one, so a row has at most one child; say 1"
            )
        if invariant.when is not None:
            self.expressions.expression(invariant.when, (*path, "when"), scope, [])
        if invariant.where is not None:
            self.expressions.expression(invariant.where, (*path, "where"), {**scope, child.name: child}, [])

    def parents(self, invariant: InvariantSpec, entity: EntitySpec, path: Path_) -> dict[str, EntitySpec | None]:
        scope: dict[str, EntitySpec | None] = {entity.name: entity}
        for alias, parent_path in invariant.parents.items():
            where = (*path, "parents", alias)
            if alias in scope or alias in CLOCK_NAMES:
                raise self.context.fail(where, f"alias '{alias}' is already taken; rename it")
            root, _, ref = parent_path.rpartition(".")
            holder = scope.get(root or entity.name)
            if holder is None:
                hint = did_you_mean(root, scope) or f"; the aliases so far are {listed(list(scope))}"
                raise self.context.fail(where, f"unknown alias '{root}' in '{parent_path}'{hint}")
            self.context.field(holder, ref, where)
            parent = self.parent_of.get((holder.name, ref))
            if parent is None:
                refs = [field for (child, field) in self.parent_of if child == holder.name]
                hint = did_you_mean(ref, refs) or f"; its ref fields are {listed(refs)}"
                raise self.context.fail(where, f"'{holder.name}.{ref}' is not a ref field{hint}")
            scope[alias] = self.context.entities[parent]
        return scope

    def relation(self, name: str, entity: EntitySpec, where: Path_, *, one_to_one: bool) -> EntitySpec:
        """The child entity of relation `name`, which must have `entity` as its parent."""
        own = [r.name for r in self.blueprint.relations if r.parent == entity.name]
        relation = self.relations.get(name)
        if relation is None or relation.parent != entity.name:
            hint = did_you_mean(name, own) or f"; relations with parent '{entity.name}': {listed(own)}"
            what = "unknown relation" if relation is None else f"relation '{name}' has parent '{relation.parent}', not"
            target = f"'{name}'" if relation is None else f"'{entity.name}'"
            raise self.context.fail(where, f"{what} {target}{hint}")
        if one_to_one and relation.cardinality != "one_to_one":
            raise self.context.fail(
                where,
                f"relation '{name}' is many_to_one; 'children' binds one_to_one children (use 'over' to aggregate)",
            )
        return self.context.entities[relation.child]

    def check_derived(self, invariant: DerivedValue, scope: dict[str, EntitySpec | None], path: Path_) -> None:
        entity = self.context.entities[invariant.entity]
        aggregated = invariant.over is not None or invariant.aggregate is not None
        if (invariant.value is None) == (not aggregated) or (
            aggregated and None in (invariant.over, invariant.aggregate)
        ):
            raise self.context.fail(path, "a derived value needs either 'value', or 'aggregate' with 'over'")
        for alias, name in invariant.children.items():
            if alias in scope or alias in CLOCK_NAMES:
                raise self.context.fail((*path, "children", alias), f"alias '{alias}' is already taken; rename it")
            scope[alias] = self.relation(name, entity, (*path, "children", alias), one_to_one=True)
        if invariant.totals and invariant.value is None:
            raise self.context.fail((*path, "totals"), "'totals' are read by 'value'; give 'value'")
        if invariant.value is not None:
            value_scope = self.check_totals(invariant.totals, scope, path)
            self.expressions.expression(invariant.value, (*path, "value"), value_scope, [])
            return
        child = self.relation(invariant.over or "", entity, (*path, "over"), one_to_one=False)
        if invariant.aggregate != "count" and invariant.of is None:
            raise self.context.fail(path, f"'aggregate: {invariant.aggregate}' needs 'of' (what is aggregated)")
        child_scope = {**scope, child.name: child}
        for key in ("of", "where"):
            source = getattr(invariant, key)
            if source is not None:
                self.expressions.expression(source, (*path, key), child_scope, [])

    def check_totals(
        self, totals: dict[str, Total], scope: dict[str, EntitySpec | None], path: Path_
    ) -> dict[str, EntitySpec | None]:
        """Check each named total; the scope the expression that reads them sees (a total is a value, not a row)."""
        for name, total in totals.items():
            where = (*path, "totals", name)
            if name in scope or name in CLOCK_NAMES or name in self.context.entities:
                raise self.context.fail(where, f"the total '{name}' is named like a row or the clock; rename it")
            self.check_total(total, scope, where)
        return {**scope, **dict.fromkeys(totals)}

    def check_total(self, total: Total, scope: dict[str, EntitySpec | None], path: Path_) -> None:
        """The total's path starts at a row the invariant sees and follows relations from parent to child."""
        alias, *names = total.over.split(".")
        holder = scope.get(alias)
        if holder is None:
            rows = [name for name, entity in scope.items() if entity is not None]
            hint = did_you_mean(alias, rows) or f"; the rows here are {listed(rows)}"
            raise self.context.fail((*path, "over"), f"'{total.over}' starts at '{alias}', which names no row{hint}")
        rows_scope = dict(scope)
        for name in names:
            holder = self.relation(name, holder, (*path, "over"), one_to_one=False)
            rows_scope[holder.name] = holder
        if total.aggregate != "count" and total.of is None:
            raise self.context.fail(path, f"'aggregate: {total.aggregate}' needs 'of' (what is aggregated)")
        for key in ("of", "where"):
            source = getattr(total, key)
            if source is not None:
                self.expressions.expression(source, (*path, key), rows_scope, [])


def check_invariants(context: CheckContext, expressions: ExpressionChecks) -> None:
    """Raise BlueprintError, located, on the first invariant that does not resolve."""
    _InvariantChecker(context, expressions).run()

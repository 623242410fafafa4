"""Meet a child count: every row has at least so many child rows through a relation (an order has a line).

Children are seeded after their parents, each pointing at a parent drawn at random, so some parents get none.
Once the child rows meet their own invariants, children move from parents that have more than they need to the
parents with too few, each move keeping every row-level rule of the child true.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from envforge.errors import BlueprintError
from envforge.ir.blueprint import Blueprint
from envforge.ir.expressions import ExpressionError
from envforge.ir.invariant_rows import Row, World
from envforge.ir.invariants import ChildCount, DerivedValue, StateRule
from envforge.ir.violations import children_needed, compile_invariant, holds


class ChildMover:
    def __init__(
        self,
        blueprint: Blueprint,
        world: World,
        rng: random.Random,
        invariant: ChildCount,
        copy: Callable[[Row], None],
    ) -> None:
        self.world = world
        self.invariant = invariant
        self.compiled = compile_invariant(invariant)
        self.relation = world.relations[invariant.over]
        self.rng = rng
        self.copy = copy
        child = self.relation.child
        own = [rule for rule in blueprint.invariants if rule.entity == child]
        self.rules = [compile_invariant(rule) for rule in own if not isinstance(rule, DerivedValue | ChildCount)]
        """The child's row-level invariants, already met: a move must keep each."""
        self.exclusive = self.relation.cardinality == "one_to_one" or any(
            isinstance(rule, StateRule) and rule.distinct and rule.seed_by == self.relation.field for rule in own
        )
        key = world.keys[self.relation.parent]
        self.parents = {row[key]: row for row in world.tables[self.relation.parent]}
        self.needs = {key: children_needed(self.compiled, world, row) for key, row in self.parents.items()}
        """Children each parent needs: `at_least`, or none where the count's `when` does not hold."""
        self.children = world.tables[child]

    def counts(self, child: Row, parent: Row) -> bool:
        """Whether `child` counts towards `parent` (its `where` holds)."""
        where = self.compiled.where
        if where is None:
            return True
        try:
            return bool(where({**self.world.scope(self.invariant, parent), self.relation.child: child}))
        except ExpressionError:
            return False

    def run(self) -> None:
        field = self.relation.field
        self.counted: dict[Any, set[int]] = {key: set() for key in self.parents}
        """Parent key -> ids of the child rows that count towards it."""
        self.members: Counter[Any] = Counter()
        for child in self.children:
            parent = self.parents.get(child[field])
            if parent is not None:
                self.members[child[field]] += 1
                if self.counts(child, parent):
                    self.counted[child[field]].add(id(child))
        short = [key for key, found in self.counted.items() if len(found) < self.needs[key]]
        if not short:
            return
        # One shuffled pool, drawn from the front: a parent takes the first child that fits it.
        pool = [child for child in self.children if self.spare(child)]
        self.rng.shuffle(pool)
        for key in short:
            while len(self.counted[key]) < self.needs[key]:
                self.move(self.donor(key, pool), key)
        self.world.forget_children()

    def spare(self, child: Row) -> bool:
        """Whether the child's own parent can do without it."""
        current = child[self.relation.field]
        found = self.counted.get(current)
        return found is None or id(child) not in found or len(found) > self.needs[current]

    def move(self, child: Row, key: Any) -> None:
        old = child[self.relation.field]
        if old in self.counted:
            self.counted[old].discard(id(child))
            self.members[old] -= 1
        child[self.relation.field] = key
        self.copy(child)
        self.counted[key].add(id(child))
        self.members[key] += 1

    def donor(self, key: Any, pool: list[Row]) -> Row:
        """The first child of the pool that its own parent can spare and that, moved to parent `key`, counts there
        and keeps every rule of the child."""
        field = self.relation.field
        parent = self.parents[key]
        if not (self.exclusive and self.members[key]):
            index = 0
            while index < len(pool):
                child = pool[index]
                if not self.spare(child):
                    pool.pop(index)
                    continue
                index += 1
                if child[field] == key:
                    continue
                trial = {**child, field: key}
                self.copy(trial)
                if self.counts(trial, parent) and all(holds(rule, self.world, trial) for rule in self.rules):
                    pool.pop(index - 1)
                    return child
        invariant = self.invariant
        raise BlueprintError(
            f"invariant '{invariant.id}' cannot hold for {invariant.entity} {key}: no {self.relation.child} row "
            f"can move to it without leaving another {invariant.entity} short or breaking a rule of "
            f"{self.relation.child}; seed more {self.relation.child} rows ('rows'), or lower 'at_least'"
        )

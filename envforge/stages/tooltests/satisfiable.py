"""Whether a rule that refused every valid call of a tool can hold at all, or dooms the tool.

A write tool may find no success on the seeded state for a good reason (closing an account needs a zero
balance, which another call makes): it stays in. It is excluded only when a precondition or enforced
policy that refused its calls holds for none of the values its fields and arguments can take: each field
ranges over its declared values and bounds, its seeded extremes, the expression's own constants and the
numbers and days around them, and empty where it may be empty.
"""

from __future__ import annotations

import ast
import itertools
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any, Literal

from envforge.ir.blueprint import ActionSpec, Blueprint, FieldSpec, ParamSpec
from envforge.ir.expressions import CompiledExpression, ExpressionError, compile_expression, is_date_text

Rows = Mapping[str, Mapping[Any, Mapping[str, Any]]]
"""Entity -> key -> seeded row."""
MAX_COMBINATIONS = 20_000
"""Scopes tried per rule; past this many, a fixed-seed sample of them."""
SEEDED_VALUES = 4
"""Distinct seeded values of a text field (or keys of an entity) tried, smallest first."""
DAY_STEPS = (0, 1, 2, 7, 30, 365)
NUMBER_STEPS = (0, 0.01, 1)
TEXT_TYPES = frozenset({"string", "text", "enum", "id", "ref"})
NUMBER_TYPES = frozenset({"integer", "number", "money"})
FAILED_MARK = "the request does not fit the records"
"""How the runtime words a refusal whose expression failed to evaluate."""


@dataclass(frozen=True)
class Rule:
    """A precondition or an enforced policy of an action."""

    kind: Literal["precondition", "policy"]
    name: str
    """The policy id, or the precondition's expression."""
    require: str
    error: str

    @property
    def label(self) -> str:
        return f"policy '{self.name}'" if self.kind == "policy" else f"precondition '{self.require}'"


@dataclass(frozen=True)
class Verdict:
    """Why a rule never holds: it is false, or it cannot be evaluated, for every scope tried."""

    rule: Rule
    failure: str | None
    """The evaluation error when no scope could be evaluated, else None (the rule was false)."""

    def describe(self) -> str:
        if self.failure is not None:
            return (
                f"{self.rule.label} fails to evaluate for every value its fields and arguments can take: {self.failure}"
            )
        return f'{self.rule.label} ("{self.rule.error}") is false for every value its fields and arguments can take'


def action_rules(blueprint: Blueprint, action: ActionSpec) -> list[Rule]:
    """The rules a call of `action` must pass, in the order the runtime checks them."""
    rules = [Rule("precondition", c.require, c.require, c.error) for c in action.preconditions]
    rules += [
        Rule("policy", p.id, p.require, p.error)
        for p in blueprint.policies
        if action.name in (p.actions or []) and p.kept_by == "runtime"
    ]
    return rules


def refusing_rules(rules: list[Rule], refusals: Iterable[Mapping[str, Any]]) -> list[Rule]:
    """The rules that refused at least one call, judged from the refusals' codes, messages and policy ids."""
    hit: set[Rule] = set()
    for error in refusals:
        message = str(error.get("message", ""))
        if error.get("code") == "policy_violation":
            hit.update(rule for rule in rules if rule.kind == "policy" and rule.name == error.get("policy"))
        elif message.startswith(FAILED_MARK):
            quoted = [rule for rule in rules if repr(rule.require) in message]
            hit.update(quoted or rules)
        else:
            hit.update(rule for rule in rules if rule.kind == "precondition" and rule.error == message)
    return [rule for rule in rules if rule in hit]


def never_holds(
    rule: Rule, action: ActionSpec, blueprint: Blueprint, rows: Rows, examples: list[dict[str, Any]]
) -> Verdict | None:
    """A verdict when `rule` holds for no scope tried; None as soon as one scope makes it true."""
    expression = compile_expression(rule.require)
    pools = _Pools(expression, action, blueprint, rows, examples)
    references = sorted({(ref.root, ref.attr) for ref in expression.references}, key=str)
    choices = [pools.values(root, attr) for root, attr in references]
    failure: str | None = None
    for combination in _combinations(choices):
        scope = pools.scope(dict(zip(references, combination, strict=True)))
        try:
            if expression(scope):
                return None
            failure = ""
        except ExpressionError as exc:
            failure = str(exc) if failure is None else failure
    return Verdict(rule, failure or None)


def _combinations(choices: list[list[Any]]) -> Iterator[tuple[Any, ...]]:
    total = 1
    for values in choices:
        total *= len(values)
    if total <= MAX_COMBINATIONS:
        yield from itertools.product(*choices)
        return
    rng = random.Random(0)
    for _ in range(MAX_COMBINATIONS):
        yield tuple(rng.choice(values) for values in choices)


class _Pools:
    """The values each name an expression reads may take."""

    def __init__(
        self,
        expression: CompiledExpression,
        action: ActionSpec,
        blueprint: Blueprint,
        rows: Rows,
        examples: list[dict[str, Any]],
    ) -> None:
        self.blueprint = blueprint
        self.rows = rows
        self.examples = examples
        self.clock = blueprint.clock
        self.params = {param.name: param for param in action.params}
        self.bindings = {binding.name: binding for binding in action.bind}
        self.parents = {(r.child, r.field): r for r in blueprint.relations}
        tree = ast.parse(expression.source.strip(), mode="eval")
        constants = [
            node.value
            for node in ast.walk(tree)
            if isinstance(node, ast.Constant)
            and isinstance(node.value, int | float | str)
            and not isinstance(node.value, bool)
        ]
        self.numbers = sorted({float(value) for value in constants if not isinstance(value, str)})
        self.texts = sorted({value for value in constants if isinstance(value, str)})

    def values(self, root: str, attr: str | None) -> list[Any]:
        if root == "args" and attr is not None and attr in self.params:
            return self.argument(self.params[attr])
        binding = self.bindings.get(root)
        if binding is None:
            return [None]
        if attr is None:
            return [True, False] if binding.optional else [True]
        entity = self.blueprint.entity(binding.entity)
        field = next((field for field in entity.fields if field.name == attr), None)
        if field is None:
            return [None]
        relation = self.parents.get((entity.name, field.name))
        empty = field.nullable or (relation is not None and not relation.required)
        seeded = [row[field.name] for row in self.rows.get(entity.name, {}).values()]
        return self.typed(field, seeded, empty, relation.parent if relation else entity.name)

    def argument(self, param: ParamSpec) -> list[Any]:
        given = [example[param.name] for example in self.examples if param.name in example]
        values = self.typed(param, given, not param.required, param.ref)
        return [bool(value) if param.type == "boolean" and value is not None else value for value in values]

    def typed(self, spec: FieldSpec | ParamSpec, seen: list[Any], empty: bool, keys_of: str | None) -> list[Any]:
        kind = "ref" if isinstance(spec, ParamSpec) and spec.ref else spec.type
        values: list[Any]
        if spec.values:
            values = list(spec.values)
        elif kind == "boolean":
            values = [0, 1]
        elif kind in NUMBER_TYPES:
            values = self.numbers_for(spec, [value for value in seen if isinstance(value, int | float)])
        elif kind in ("date", "datetime"):
            values = self.days(kind, [value for value in seen if isinstance(value, str)])
        elif kind in ("id", "ref") and keys_of is not None:
            values = sorted(map(str, self.rows.get(keys_of, {})))[:SEEDED_VALUES]
        else:
            values = sorted({value for value in seen if isinstance(value, str)})[:SEEDED_VALUES] + self.texts
        return [*dict.fromkeys(values), *([None] if empty else [])]

    def numbers_for(self, spec: FieldSpec | ParamSpec, seen: list[float]) -> list[float]:
        near = {anchor + sign * step for anchor in (0.0, *self.numbers) for step in NUMBER_STEPS for sign in (-1, 1)}
        candidates = near | ({min(seen), max(seen)} if seen else set())
        candidates |= {bound for bound in (spec.minimum, spec.maximum) if bound is not None}
        low = float("-inf") if spec.minimum is None else spec.minimum
        high = float("inf") if spec.maximum is None else spec.maximum
        whole = spec.type == "integer"
        kept = {int(value) if whole else round(value, 2) for value in candidates if low <= value <= high}
        return sorted(value for value in kept if not whole or float(value).is_integer())

    def days(self, kind: str, seen: list[str]) -> list[str]:
        moments = [self.clock + timedelta(days=sign * step) for step in DAY_STEPS for sign in (-1, 1)]
        texts = [moment.date().isoformat() if kind == "date" else moment.isoformat() for moment in moments]
        texts += [text for text in self.texts if is_date_text(text)]
        return sorted({*texts, *(sorted(seen)[:1] + sorted(seen)[-1:])})

    def scope(self, chosen: dict[tuple[str, str | None], Any]) -> dict[str, Any]:
        scope: dict[str, Any] = {
            "args": {},
            "now": self.clock.isoformat(),
            "today": self.clock.date().isoformat(),
        }
        bound = [(root, value) for (root, attr), value in chosen.items() if attr is None and root in self.bindings]
        present = {root for root, value in bound if value}
        absent = {root for root, value in bound if not value}
        for (root, attr), value in chosen.items():
            if root == "args" and attr is not None:
                if value is not None:
                    scope["args"][attr] = value
            elif root in self.bindings and root not in absent:
                scope.setdefault(root, {})
                if attr is not None:
                    scope[root][attr] = value
        for root in absent:
            scope[root] = None
        for root in present:
            scope.setdefault(root, {})
        return scope

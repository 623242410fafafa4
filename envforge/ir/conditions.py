"""The conditions of a rule: the yes-or-no parts of an expression, and which of them a verdict turns on.

A policy's `require` weighs conditions together: `days_between(order.delivered_on, today) <= (60 if
customer.loyalty_tier == 'gold' else 30)` holds two, the window and the tier that sets it. A verdict turns on a
condition when changing that condition alone would change the verdict: a gold customer returning on day 45 is
allowed by both (a silver customer, or day 65, would be refused); on day 10 only by the window.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from functools import lru_cache
from typing import cast

from envforge.ir.expressions import CompiledExpression, ExpressionError, Scope, compile_expression


@dataclass(frozen=True)
class Conditions:
    """An expression's conditions in reading order, each with the expression in which it alone is negated."""

    expression: CompiledExpression
    texts: tuple[str, ...]
    """Each condition as written (`customer.loyalty_tier == 'gold'`)."""
    negated: tuple[CompiledExpression, ...]

    def verdict(self, policy: str, scope: Scope) -> RuleVerdict:
        """`policy`'s verdict on `scope`, whose rule these are the conditions of."""
        return RuleVerdict(policy, bool(self.expression(scope)), self.turning(scope))

    def turning(self, scope: Scope) -> tuple[str, ...]:
        """The conditions the verdict on `scope` turns on: each that, negated alone, changes the verdict. A
        negation the scope cannot evaluate (a date of a row that has none) changes nothing."""
        verdict = bool(self.expression(scope))
        turned = []
        for text, negated in zip(self.texts, self.negated, strict=True):
            try:
                if bool(negated(scope)) != verdict:
                    turned.append(text)
            except ExpressionError:
                continue
        return tuple(turned)


@dataclass(frozen=True)
class RuleVerdict:
    """A policy's verdict on one request, and the conditions it turns on."""

    policy: str
    holds: bool
    turning: tuple[str, ...]


@lru_cache(maxsize=1024)
def conditions_of(source: str) -> Conditions:
    """The conditions of the boolean expression `source`: the comparisons and yes-or-no values it combines with
    `and`, `or`, `not` and `... if ... else ...`, including those that choose a value (`60 if gold else 30`).
    Raises ExpressionError for an expression that does not compile."""
    expression = compile_expression(source)
    tree = ast.parse(source.strip(), mode="eval")
    slots: list[tuple[ast.AST, str, int | None]] = []
    _collect(tree, "body", None, slots, boolean=True)
    texts, negated = [], []
    for parent, field, index in slots:
        node = _get(parent, field, index)
        texts.append(ast.unparse(node))
        _put(parent, field, index, ast.UnaryOp(op=ast.Not(), operand=node))
        negated.append(compile_expression(ast.unparse(tree)))
        _put(parent, field, index, node)
    return Conditions(expression, tuple(texts), tuple(negated))


def _get(parent: ast.AST, field: str, index: int | None) -> ast.expr:
    value = getattr(parent, field)
    return cast(ast.expr, value if index is None else value[index])


def _put(parent: ast.AST, field: str, index: int | None, node: ast.expr) -> None:
    if index is None:
        setattr(parent, field, node)
    else:
        getattr(parent, field)[index] = node


def _collect(
    parent: ast.AST, field: str, index: int | None, slots: list[tuple[ast.AST, str, int | None]], *, boolean: bool
) -> None:
    """Record, in reading order, where each condition sits under `parent.field[index]`; `boolean` when that place
    is read as yes or no (an operand of `and`, the test of an `if`)."""
    node = _get(parent, field, index)
    if isinstance(node, ast.BoolOp):
        for position in range(len(node.values)):
            _collect(node, "values", position, slots, boolean=True)
        return
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        _collect(node, "operand", None, slots, boolean=True)
        return
    if isinstance(node, ast.IfExp):
        _collect(node, "test", None, slots, boolean=True)
        _collect(node, "body", None, slots, boolean=boolean)
        _collect(node, "orelse", None, slots, boolean=boolean)
        return
    if boolean or isinstance(node, ast.Compare):
        slots.append((parent, field, index))
    for name, value in ast.iter_fields(node):
        if isinstance(value, ast.expr):
            _collect(node, name, None, slots, boolean=False)
        elif isinstance(value, list):
            for position, item in enumerate(value):
                if isinstance(item, ast.expr):
                    _collect(node, name, position, slots, boolean=False)

"""The blueprint expression language: a side-effect-free subset of Python syntax.

Expressions are parsed with `ast` and compiled once into closures over a whitelist of node
types; nothing is ever passed to `eval`. Compilation also records every `root.attr` reference,
so a blueprint can be checked statically (unknown aliases, unknown fields) before it runs.
"""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from functools import lru_cache
from typing import Any

from envforge.errors import EnvforgeError

Scope = Mapping[str, Any]
Evaluator = Callable[[Scope], Any]


class ExpressionError(EnvforgeError, ValueError):
    """An expression that cannot be parsed, or fails when evaluated."""


def _as_date(value: Any) -> date:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str):
        return datetime.fromisoformat(value).date() if "T" in value else date.fromisoformat(value)
    raise ExpressionError(f"expected a date, got {value!r}")


def is_date_text(text: str) -> bool:
    """Whether `text` is a date or datetime the date functions read (ISO: `2026-03-16`, `2026-03-16T10:00:00`)."""
    try:
        _as_date(text)
    except ValueError:
        return False
    return True


def _days_between(start: Any, end: Any) -> int:
    return (_as_date(end) - _as_date(start)).days


def _years_between(start: Any, end: Any) -> int:
    first, last = _as_date(start), _as_date(end)
    # Whole years, as an age counts them: a birthday not yet reached this year does not count.
    return last.year - first.year - ((last.month, last.day) < (first.month, first.day))


def _add_days(day: Any, days: Any) -> str:
    return (_as_date(day) + timedelta(days=int(days))).isoformat()


def _coalesce(*values: Any) -> Any:
    return next((value for value in values if value is not None), None)


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "round": round,
    "min": min,
    "max": max,
    "abs": abs,
    "len": len,
    "lower": str.lower,
    "upper": str.upper,
    "coalesce": _coalesce,
    "days_between": _days_between,
    "years_between": _years_between,
    "add_days": _add_days,
}

_BINARY: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.Mod: operator.mod,
}

_COMPARE: dict[type[ast.cmpop], Callable[[Any, Any], bool]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda left, right: left in right,
    ast.NotIn: lambda left, right: left not in right,
    ast.Is: operator.is_,
    ast.IsNot: operator.is_not,
}


@dataclass(frozen=True)
class Reference:
    """A name the expression reads: `root` alone (`now`) or `root.attr` (`order.status`)."""

    root: str
    attr: str | None


@dataclass(frozen=True)
class CompiledExpression:
    source: str
    references: tuple[Reference, ...]
    evaluate: Evaluator

    def __call__(self, scope: Scope) -> Any:
        try:
            return self.evaluate(scope)
        except ExpressionError:
            raise
        except (TypeError, ValueError, ZeroDivisionError, KeyError, AttributeError) as exc:
            raise ExpressionError(f"cannot evaluate {self.source!r}: {exc}") from exc


class _Compiler:
    def __init__(self, source: str) -> None:
        self.source = source
        self.references: list[Reference] = []

    def fail(self, node: ast.AST, what: str) -> ExpressionError:
        return ExpressionError(f"{what} is not allowed in expressions (in {self.source!r})")

    def compile(self, node: ast.AST) -> Evaluator:
        if isinstance(node, ast.Constant):
            value = node.value
            return lambda scope: value
        if isinstance(node, ast.Name):
            return self._name(node)
        if isinstance(node, ast.Attribute):
            return self._attribute(node)
        if isinstance(node, ast.BinOp):
            return self._binary(node)
        if isinstance(node, ast.UnaryOp):
            return self._unary(node)
        if isinstance(node, ast.BoolOp):
            return self._boolean(node)
        if isinstance(node, ast.Compare):
            return self._compare(node)
        if isinstance(node, ast.IfExp):
            test, body, orelse = self.compile(node.test), self.compile(node.body), self.compile(node.orelse)
            return lambda scope: body(scope) if test(scope) else orelse(scope)
        if isinstance(node, ast.Tuple | ast.List):
            items = [self.compile(item) for item in node.elts]
            return lambda scope: tuple(item(scope) for item in items)
        if isinstance(node, ast.Call):
            return self._call(node)
        raise self.fail(node, type(node).__name__)

    def _name(self, node: ast.Name) -> Evaluator:
        name = node.id
        if name in ("True", "False", "None"):
            raise self.fail(node, name)
        self.references.append(Reference(name, None))
        return lambda scope: scope[name]

    def _attribute(self, node: ast.Attribute) -> Evaluator:
        if not isinstance(node.value, ast.Name):
            raise self.fail(node, "a nested attribute")
        root, attr = node.value.id, node.attr
        self.references.append(Reference(root, attr))

        def read(scope: Scope) -> Any:
            row = scope[root]
            return None if row is None else row.get(attr)

        return read

    def _binary(self, node: ast.BinOp) -> Evaluator:
        op = _BINARY.get(type(node.op))
        if op is None:
            raise self.fail(node, type(node.op).__name__)
        left, right = self.compile(node.left), self.compile(node.right)
        return lambda scope: op(left(scope), right(scope))

    def _unary(self, node: ast.UnaryOp) -> Evaluator:
        operand = self.compile(node.operand)
        if isinstance(node.op, ast.Not):
            return lambda scope: not operand(scope)
        if isinstance(node.op, ast.USub):
            return lambda scope: -operand(scope)
        raise self.fail(node, type(node.op).__name__)

    def _boolean(self, node: ast.BoolOp) -> Evaluator:
        values = [self.compile(value) for value in node.values]
        if isinstance(node.op, ast.And):
            return lambda scope: all(value(scope) for value in values)
        return lambda scope: any(value(scope) for value in values)

    def _compare(self, node: ast.Compare) -> Evaluator:
        first = self.compile(node.left)
        steps: list[tuple[Callable[[Any, Any], bool], Evaluator]] = []
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            function = _COMPARE.get(type(op))
            if function is None:
                raise self.fail(node, type(op).__name__)
            if isinstance(op, ast.Is | ast.IsNot) and not (
                isinstance(comparator, ast.Constant) and comparator.value is None
            ):
                raise self.fail(node, "`is` with anything but None")
            steps.append((function, self.compile(comparator)))

        def compare(scope: Scope) -> bool:
            left = first(scope)
            for function, right_of in steps:
                right = right_of(scope)
                if not function(left, right):
                    return False
                left = right
            return True

        return compare

    def _call(self, node: ast.Call) -> Evaluator:
        if not isinstance(node.func, ast.Name) or node.func.id not in FUNCTIONS:
            name = node.func.id if isinstance(node.func, ast.Name) else "this call"
            raise ExpressionError(
                f"unknown function {name!r} in {self.source!r}; known: {', '.join(sorted(FUNCTIONS))}"
            )
        if node.keywords:
            raise self.fail(node, "a keyword argument")
        function = FUNCTIONS[node.func.id]
        args = [self.compile(arg) for arg in node.args]
        return lambda scope: function(*(arg(scope) for arg in args))


@lru_cache(maxsize=4096)
def compile_expression(source: str) -> CompiledExpression:
    """Parse and compile an expression; raises ExpressionError with a readable message."""
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError as exc:
        raise ExpressionError(f"cannot parse {source!r}: {exc.msg}") from exc
    compiler = _Compiler(source)
    evaluate = compiler.compile(tree.body)
    return CompiledExpression(source, tuple(compiler.references), evaluate)

"""Semantic checks of one blueprint expression: every name it reads resolves and its parts' types meet."""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from envforge.errors import did_you_mean
from envforge.ir.blueprint import EntitySpec, ParamSpec
from envforge.ir.check_context import CheckContext, listed
from envforge.ir.expression_types import (
    ExpressionTypeError,
    check_amount_type,
    check_expression_types,
    check_value_type,
)
from envforge.ir.expressions import FUNCTIONS, ExpressionError, compile_expression
from envforge.ir.locations import Path_

Scope = dict[str, EntitySpec | None]
"""Alias -> the entity of the row it names (None: a row of no declared entity)."""
CLOCK_NAMES = frozenset({"now", "today"})
EXPRESSION_HINT = (
    "expressions use bound rows (order.status), args.<name>, now, today, arithmetic, comparisons, "
    "and/or/not, in (...), is None and the functions " + ", ".join(sorted(FUNCTIONS))
)
AGGREGATE_HINT = "expressions have no aggregates; keep a stored counter and increment it in the action's effects"
AGGREGATE_NAMES = frozenset(
    {"count", "sum", "avg", "average", "mean", "median", "total", "exists", "any", "all", "size", "distinct"}
)
"""Names a writer reaches for to aggregate over rows, which an expression never sees."""
_COMPREHENSIONS = (ast.GeneratorExp, ast.ListComp, ast.SetComp, ast.DictComp)
_OWNERS = {
    "policies": ("policy", "id"),
    "actions": ("action", "name"),
    "invariants": ("invariant", "id"),
    "personas": ("persona", "name"),
}


class ExpressionChecks:
    """The expression checks of one blueprint; errors are located through its check context."""

    def __init__(self, context: CheckContext) -> None:
        self.context = context

    def owner(self, path: Path_) -> str:
        """What a path belongs to, as a message names it: `policy 'max_loans'`, `action 'renew_loan'`."""
        if len(path) < 2 or path[0] not in _OWNERS or not isinstance(path[1], int):
            return "the expression"
        what, key = _OWNERS[str(path[0])]
        return f"{what} '{getattr(getattr(self.context.blueprint, str(path[0]))[path[1]], key)}'"

    def typed(self, path: Path_, check: Callable[[], None]) -> None:
        """Run a type check; its complaint becomes a located error naming what the expression belongs to."""
        try:
            check()
        except ExpressionTypeError as exc:
            raise self.context.fail(path, f"{self.owner(path)} {exc}") from None

    def expression(self, source: str, path: Path_, scope: Scope, params: Sequence[ParamSpec]) -> None:
        """Check that every name `source` reads exists and that its parts' types meet."""
        fail = self.context.fail
        function = _unknown_function(source)
        if function is not None:
            hint = (
                f"; {AGGREGATE_HINT}"
                if function.lower() in AGGREGATE_NAMES
                else did_you_mean(function, FUNCTIONS) or f"; the functions are {listed(sorted(FUNCTIONS))}"
            )
            raise fail(path, f"unknown function '{function}' in {source!r}{hint}")
        try:
            compiled = compile_expression(source)
        except ExpressionError as exc:
            raise fail(path, f"{exc}; {AGGREGATE_HINT if _comprehends(source) else EXPRESSION_HINT}") from None
        param_names = [param.name for param in params]
        for reference in compiled.references:
            if reference.root == "args":
                if reference.attr is None or reference.attr not in param_names:
                    name = reference.attr or ""
                    if not param_names:
                        hint = "; there are no arguments here (an entity policy sees only the row it checks)"
                    else:
                        hint = did_you_mean(name, param_names) or f"; the arguments are {listed(param_names)}"
                    raise fail(path, f"no argument 'args.{name}'{hint}")
            elif reference.root in CLOCK_NAMES and reference.attr is None:
                continue
            elif reference.root in scope:
                entity = scope[reference.root]
                if reference.attr is not None and entity is not None:
                    self.attribute(entity, reference.root, reference.attr, path)
            else:
                known = [*scope, "args", *CLOCK_NAMES]
                hint = did_you_mean(reference.root, known) or f"; names here are {listed(known)}"
                raise fail(path, f"unknown name '{reference.root}' in {source!r}{hint}")
        self.typed(path, lambda: check_expression_types(source, scope, params))

    def attribute(self, entity: EntitySpec, alias: str, attr: str, path: Path_) -> None:
        """`alias.attr` names a field of the row; naming its child rows instead asks for an aggregate."""
        if all(field.name != attr for field in entity.fields):
            for relation in self.context.blueprint.relations:
                child = self.context.entities.get(relation.child)
                if (
                    relation.parent == entity.name
                    and child is not None
                    and attr in _row_names(child, relation.name, entity.name)
                ):
                    raise self.context.fail(
                        path,
                        f"'{alias}.{attr}' names rows of '{child.name}' (relation '{relation.name}'), not a field; "
                        f"{AGGREGATE_HINT}",
                    )
        self.context.field(entity, attr, path)

    def value(
        self,
        entity: EntitySpec,
        name: str,
        source: str,
        path: Path_,
        scope: Scope,
        params: Sequence[ParamSpec],
        *,
        matched: bool = False,
    ) -> None:
        """Check an expression given for field `name` of `entity`: it resolves, and its value fits the field."""
        self.expression(source, path, scope, params)
        field = next(field for field in entity.fields if field.name == name)
        self.typed(path, lambda: check_value_type(field, entity.name, source, scope, params, matched=matched))

    def amount(self, what: str, source: str, path: Path_, scope: Scope, params: Sequence[ParamSpec]) -> None:
        """Check the amount of an increment or decrement: it resolves, and it is a number."""
        self.expression(source, path, scope, params)
        self.typed(path, lambda: check_amount_type(what, source, scope, params))


def _row_names(child: EntitySpec, relation: str, parent: str) -> set[str]:
    """What a writer may call a parent's child rows: `order.items` for the order_item rows of relation order_items."""
    names = {child.name, child.plural or f"{child.name}s", relation}
    return names | {name.removeprefix(f"{parent}_") for name in names}


def _parsed(source: str) -> ast.Expression | None:
    try:
        return ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        return None


def _unknown_function(source: str) -> str | None:
    """The first function an expression calls that the expression language does not have."""
    for node in ast.walk(_parsed(source) or ast.Expression(ast.Constant(None))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in FUNCTIONS:
            return node.func.id
    return None


def _comprehends(source: str) -> bool:
    """Whether the expression loops over rows (`min(l.due_on for l in loans)`), as an aggregate would."""
    return any(isinstance(node, _COMPREHENSIONS) for node in ast.walk(_parsed(source) or ast.Constant(None)))

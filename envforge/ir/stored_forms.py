"""How an action stores an argument: where every use of `args.<name>` lower-cases (or upper-cases) it, two spellings
that differ only in case store the same value, so a verifier compares them as that one value.

Read from the action's expressions (bindings, preconditions, its policies, effects): an argument counts as
normalised only when each of its uses is `lower(args.x)` (or each `upper(args.x)`), uses blind to case aside (a test
against None, its length, whether it holds `'@'`). Any other use (stored as given, compared) keeps the argument as
written.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any, Literal

from envforge.ir.blueprint import ActionSpec, PolicySpec
from envforge.ir.toolspec import scalars

Form = Literal["lower", "upper"]
FOLDS: dict[Form, Callable[[str], str]] = {"lower": str.lower, "upper": str.upper}


def _case_blind(node: ast.expr, parent: ast.AST | None) -> bool:
    """A use that reads the same whatever the argument's case: a test against None, its length, or whether it
    holds a string with no letters (`'@' in args.email`)."""
    if isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.func.id == "len":
        return True
    if not isinstance(parent, ast.Compare):
        return False
    operands = [parent.left, *parent.comparators]
    others = [operand for operand in operands if operand is not node]
    if all(isinstance(op, ast.Is | ast.IsNot) for op in parent.ops):
        return all(isinstance(other, ast.Constant) and other.value is None for other in others)
    return (
        all(isinstance(op, ast.In | ast.NotIn) for op in parent.ops)
        and node in parent.comparators
        and all(
            isinstance(other, ast.Constant)
            and isinstance(other.value, str)
            and other.value.lower() == other.value.upper()
            for other in others
        )
    )


def _uses(source: str) -> Iterator[tuple[str, str]]:
    """(argument, how it is used) for each `args.<name>` in an expression: `lower`, `upper`, `blind`, `raw`."""
    try:
        tree = ast.parse(source, mode="eval")
    except SyntaxError:
        return
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "args"):
            continue
        parent = parents.get(node)
        if _case_blind(node, parent):
            yield node.attr, "blind"
        elif isinstance(parent, ast.Call) and isinstance(parent.func, ast.Name) and parent.args == [node]:
            yield node.attr, parent.func.id if parent.func.id in FOLDS else "raw"
        else:
            yield node.attr, "raw"


def stored_forms(action: ActionSpec, policies: list[PolicySpec]) -> dict[str, Form]:
    """Argument -> the case its every use folds it to, for the arguments the action folds."""
    dumped = action.model_dump(exclude={"name", "description", "entity", "params", "returns"})
    scoped = [
        policy.model_dump(include={"require", "instead"})
        for policy in policies
        if action.name in (policy.actions or [])
    ]
    # Every string inside them: the expressions among them are what parses.
    sources = [value for value in scalars([dumped, scoped]) if isinstance(value, str)]
    seen: dict[str, set[str]] = {}
    for source in sources:
        for name, use in _uses(source):
            seen.setdefault(name, set()).add(use)
    forms: dict[str, Form] = {}
    for name, uses in sorted(seen.items()):
        folds = uses - {"blind"}
        if folds in ({"lower"}, {"upper"}):
            forms[name] = "lower" if folds == {"lower"} else "upper"
    return forms


def stored_arguments(arguments: dict[str, Any], forms: dict[str, Form]) -> dict[str, Any]:
    """The arguments as the action stores them: each folded argument in its case."""
    return {
        name: FOLDS[forms[name]](value) if name in forms and isinstance(value, str) else value
        for name, value in arguments.items()
    }

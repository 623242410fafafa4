"""Static types of blueprint expressions, so that a comparison that can never work is refused at load time.

Each node gets a kind from the declared field and argument types, literals, `now`/`today` and the
functions' signatures. A mismatch is reported only where the runtime would fail or always answer the
same: a number against text, a date against a number, arithmetic on dates, an enum against a value it
cannot hold. Anything whose type is not known (a bare row, an optional value) is let through.
"""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from envforge.errors import EnvforgeError, did_you_mean
from envforge.ir.blueprint import EntitySpec, FieldSpec, ParamSpec
from envforge.ir.expressions import is_date_text

Kind = Literal["number", "boolean", "string", "date", "datetime", "none", "tuple", "unknown"]

NUMERIC: frozenset[Kind] = frozenset({"number", "boolean"})
"""Booleans are 0/1 in stored rows and `bool` in arguments: both compare and add as numbers."""
TEXTUAL: frozenset[Kind] = frozenset({"string", "date", "datetime"})
"""Dates and datetimes are ISO strings at run time, so they compare and join with text."""
DATES: frozenset[Kind] = frozenset({"date", "datetime"})
_NUMBER_TEXT = re.compile(r"^-?\d+(\.\d+)?$")
_TRUTH_WORDS = {"true": "True", "false": "False", "yes": "True", "no": "False"}
_DECLARED: dict[str, Kind] = {
    "id": "string",
    "ref": "string",
    "string": "string",
    "text": "string",
    "enum": "string",
    "integer": "number",
    "number": "number",
    "money": "number",
    "boolean": "boolean",
    "date": "date",
    "datetime": "datetime",
}
_VERBS: dict[type[ast.operator], tuple[str, str]] = {
    ast.Add: ("adds", "to"),
    ast.Sub: ("subtracts", "from"),
    ast.Mult: ("multiplies", "by"),
    ast.Div: ("divides", "by"),
    ast.Mod: ("takes the remainder of", "by"),
}
DATE_HINT = (
    "compare dates with dates (today, add_days(today, n), a date field) or count days with days_between(start, end)"
)
SAME_KIND_HINT = "compare numbers with numbers and text with text"
ARITHMETIC_HINT = "arithmetic needs numbers on both sides (only + also joins text with text)"
ARITHMETIC_DATE_HINT = "move a date with add_days(day, n) and count days with days_between(start, end)"


class ExpressionTypeError(EnvforgeError, ValueError):
    """Two parts of an expression whose types cannot meet; the message is one line with a fix."""


@dataclass(frozen=True)
class Typed:
    """What one node of an expression evaluates to."""

    kind: Kind
    label: str
    """The type as a blueprint writes it (`integer`, `money`, `enum`, `date`, ...)."""
    node: ast.expr
    values: tuple[str, ...] = ()
    """The allowed values, for an enum field or argument."""
    items: tuple[Typed, ...] = ()
    """The elements, for a tuple such as `('gold', 'platinum')`."""


@dataclass(frozen=True)
class Signature:
    """A function of the expression language: how it is written, what it takes and what it gives."""

    usage: str
    """How the function is written, e.g. `days_between(start, end)`."""
    arity: tuple[int, int | None]
    """Fewest and most arguments (None: any number)."""
    takes: Sequence[frozenset[Kind] | None]
    """Kinds each argument may have, by position (the last entry repeats); None takes anything."""
    gives: Kind
    """The kind of the result; `unknown` for results that follow the arguments (min, max, coalesce)."""
    label: str
    """The result's type, as messages and the docs name it."""
    needs: str
    """What the arguments are, in words, for messages."""


SIGNATURES: dict[str, Signature] = {
    "round": Signature("round(x, digits)", (1, 2), [NUMERIC], "number", "number", "numbers"),
    "min": Signature("min(a, b, ...)", (1, None), [None], "unknown", "like its arguments", "values of one type"),
    "max": Signature("max(a, b, ...)", (1, None), [None], "unknown", "like its arguments", "values of one type"),
    "abs": Signature("abs(x)", (1, 1), [NUMERIC], "number", "number", "a number"),
    "len": Signature("len(s)", (1, 1), [frozenset({*TEXTUAL, "tuple"})], "number", "integer", "text or a list"),
    "lower": Signature("lower(s)", (1, 1), [TEXTUAL], "string", "string", "text"),
    "upper": Signature("upper(s)", (1, 1), [TEXTUAL], "string", "string", "text"),
    "coalesce": Signature(
        "coalesce(a, b, ...)", (1, None), [None], "unknown", "like its arguments", "values of one type"
    ),
    "days_between": Signature("days_between(start, end)", (2, 2), [TEXTUAL], "number", "integer", "dates"),
    "years_between": Signature("years_between(start, end)", (2, 2), [TEXTUAL], "number", "integer", "dates"),
    "add_days": Signature(
        "add_days(day, n)", (2, 2), [TEXTUAL, frozenset({*NUMERIC, "string"})], "date", "date", "a date and a number"
    ),
}
"""Every function the evaluator knows, typed; a test keeps it equal to `expressions.FUNCTIONS`."""


def _offset(text: str, line: int, column: int) -> int:
    lines = text.split("\n")
    return sum(len(part) + 1 for part in lines[: line - 1]) + column


class _Inferrer:
    def __init__(self, source: str, rows: Mapping[str, EntitySpec | None], params: Sequence[ParamSpec]) -> None:
        self.source = source.strip()
        self.rows = rows
        self.params = {param.name: param for param in params}

    # --- how messages show nodes --------------------------------------------------------------

    def text(self, node: ast.expr) -> str:
        return ast.get_source_segment(self.source, node) or ast.unparse(node)

    def shown(self, typed: Typed) -> str:
        """A literal as written (`'3'`, `3`); anything else quoted (`'member.active_reservations'`)."""
        text = self.text(typed.node)
        return text if isinstance(typed.node, ast.Constant) else f"'{text}'"

    def named(self, typed: Typed) -> str:
        return f"{typed.label} {self.shown(typed)}"

    def replaced(self, node: ast.expr, new: str) -> str:
        """The whole source with `node` written as `new`."""
        start = _offset(self.source, node.lineno, node.col_offset)
        end = _offset(self.source, node.end_lineno or node.lineno, node.end_col_offset or node.col_offset)
        return f"{self.source[:start]}{new}{self.source[end:]}"

    # --- inference ----------------------------------------------------------------------------

    def infer(self, node: ast.expr) -> Typed:
        match node:
            case ast.Constant(value=None):
                return Typed("none", "None", node)
            case ast.Constant(value=bool()):
                return Typed("boolean", "boolean", node)
            case ast.Constant(value=int()):
                return Typed("number", "integer", node)
            case ast.Constant(value=float()):
                return Typed("number", "number", node)
            case ast.Constant(value=str()):
                return Typed("string", "string", node)
            case ast.Name(id="today"):
                return Typed("date", "date", node)
            case ast.Name(id="now"):
                return Typed("datetime", "datetime", node)
            case ast.Attribute(value=ast.Name(id=root), attr=attr):
                return self.attribute(node, root, attr)
            case ast.Compare():
                self.compare(node)
                return Typed("boolean", "boolean", node)
            case ast.BoolOp(values=values):
                for value in values:
                    self.infer(value)
                return Typed("boolean", "boolean", node)
            case ast.UnaryOp(op=ast.Not(), operand=operand):
                self.infer(operand)
                return Typed("boolean", "boolean", node)
            case ast.UnaryOp(op=ast.USub(), operand=operand):
                typed = self.infer(operand)
                if typed.kind in TEXTUAL:
                    raise ExpressionTypeError(f"negates {self.named(typed)}; only numbers can be negated")
                return Typed(typed.kind, typed.label, node) if typed.kind in NUMERIC else Typed("unknown", "", node)
            case ast.BinOp():
                return self.binary(node)
            case ast.IfExp(test=test, body=body, orelse=orelse):
                self.infer(test)
                return self.either(node, self.infer(body), self.infer(orelse))
            case ast.Tuple(elts=elements) | ast.List(elts=elements):
                return Typed("tuple", "list", node, items=tuple(self.infer(item) for item in elements))
            case ast.Call(func=ast.Name(id=name), args=args) if name in SIGNATURES:
                return self.call(node, name, [self.infer(arg) for arg in args])
        return Typed("unknown", "", node)

    def attribute(self, node: ast.expr, root: str, attr: str) -> Typed:
        if root == "args":
            param = self.params.get(attr)
            if param is None:
                return Typed("unknown", "", node)
            declared = "ref" if param.ref is not None else param.type
            return Typed(_DECLARED[declared], _label(declared), node, tuple(param.values or ()))
        entity = self.rows.get(root)
        field = None if entity is None else next((f for f in entity.fields if f.name == attr), None)
        if field is None:
            return Typed("unknown", "", node)
        return Typed(_DECLARED[field.type], _label(field.type), node, tuple(field.values or ()))

    def either(self, node: ast.expr, body: Typed, orelse: Typed) -> Typed:
        if body.kind == "none":
            return Typed(orelse.kind, orelse.label, node)
        if orelse.kind in ("none", body.kind):
            return Typed(body.kind, body.label if body.label == orelse.label else body.kind, node)
        if {body.kind, orelse.kind} <= TEXTUAL:
            return Typed("string", "string", node)
        return Typed("unknown", "", node)

    # --- comparisons --------------------------------------------------------------------------

    def compare(self, node: ast.Compare) -> None:
        left = self.infer(node.left)
        for op, comparator in zip(node.ops, node.comparators, strict=True):
            right = self.infer(comparator)
            if isinstance(op, ast.In | ast.NotIn):
                self.contains(left, right)
            elif not isinstance(op, ast.Is | ast.IsNot):
                self.meet(left, right)
            left = right

    def contains(self, needle: Typed, haystack: Typed) -> None:
        if haystack.kind == "tuple":
            for item in haystack.items:
                self.meet(needle, item)
        elif haystack.kind in NUMERIC:
            raise ExpressionTypeError(
                f"looks for {self.named(needle)} in {self.named(haystack)}; `in` needs a list such as "
                "('a', 'b') or text"
            )
        elif haystack.kind in TEXTUAL and needle.kind in NUMERIC:
            raise ExpressionTypeError(
                f"looks for {self.named(needle)} in {self.named(haystack)}; only text can be found in text"
            )

    def meet(self, left: Typed, right: Typed) -> None:
        """Refuse a comparison of `left` with `right` that fails or always gives the same answer."""
        for one, other in ((left, right), (right, left)):
            self.enum_value(one, other)
            literal = other.node.value if isinstance(other.node, ast.Constant) else None
            if one.kind in DATES and isinstance(literal, str) and not is_date_text(literal):
                raise ExpressionTypeError(
                    f"compares {self.named(one)} with {self.named(other)}, {_not_a_date(one.kind)}"
                )
        if {left.kind, right.kind} & NUMERIC and {left.kind, right.kind} & TEXTUAL:
            number, text = (left, right) if left.kind in NUMERIC else (right, left)
            raise ExpressionTypeError(f"compares {self.named(left)} with {self.named(right)}; {self.fix(number, text)}")

    def enum_value(self, enum: Typed, other: Typed) -> None:
        if not enum.values:
            return
        for literal in _literals(other.node):
            if literal not in enum.values:
                hint = did_you_mean(str(literal), enum.values) or f"; its values are {', '.join(enum.values)}"
                raise ExpressionTypeError(
                    f"compares enum {self.shown(enum)} with {literal!r}, which is not one of its values{hint}"
                )

    def fix(self, number: Typed, text: Typed, otherwise: str = "") -> str:
        """How to mend a number meeting text: unquote a quoted number or truth value, else `otherwise`."""
        literal = text.node.value if isinstance(text.node, ast.Constant) else None
        if isinstance(literal, str) and number.kind == "number" and _NUMBER_TEXT.match(literal.strip()):
            return f"write the number without quotes: {self.replaced(text.node, literal.strip())}"
        if isinstance(literal, str) and number.kind == "boolean" and literal.strip().lower() in _TRUTH_WORDS:
            truth = _TRUTH_WORDS[literal.strip().lower()]
            return f"write True or False without quotes: {self.replaced(text.node, truth)}"
        return otherwise or (DATE_HINT if text.kind in DATES else SAME_KIND_HINT)

    # --- arithmetic and calls -----------------------------------------------------------------

    def binary(self, node: ast.BinOp) -> Typed:
        left, right = self.infer(node.left), self.infer(node.right)
        kinds = {left.kind, right.kind}
        if kinds <= NUMERIC:
            same = left.label == right.label and left.kind == "number" and not isinstance(node.op, ast.Div)
            label = left.label if same else "number"
            return Typed("number", label, node)
        textual = kinds <= TEXTUAL
        if (isinstance(node.op, ast.Add) and textual) or (isinstance(node.op, ast.Mod) and left.kind in TEXTUAL):
            return Typed("string", "string", node)
        if isinstance(node.op, ast.Mult) and kinds & TEXTUAL and kinds & NUMERIC:
            return Typed("string", "string", node)  # text repeated n times
        if not (kinds & TEXTUAL and (kinds & NUMERIC or textual)):
            return Typed("unknown", "", node)
        verb, joint = _VERBS.get(type(node.op), ("combines", "with"))
        first, second = (right, left) if isinstance(node.op, ast.Add | ast.Sub) else (left, right)
        raise ExpressionTypeError(
            f"{verb} {self.named(first)} {joint} {self.named(second)}; {self.arithmetic_fix(node, left, right)}"
        )

    def arithmetic_fix(self, node: ast.BinOp, left: Typed, right: Typed) -> str:
        left_text, right_text = self.text(left.node), self.text(right.node)
        if left.kind in DATES and right.kind in NUMERIC and isinstance(node.op, ast.Add | ast.Sub):
            days = right_text if isinstance(node.op, ast.Add) else f"-{right_text}"
            return f"move a date by days with add_days: {self.replaced(node, f'add_days({left_text}, {days})')}"
        if left.kind in DATES and right.kind in DATES and isinstance(node.op, ast.Sub):
            days = f"days_between({right_text}, {left_text})"
            return f"count the days between two dates with days_between: {self.replaced(node, days)}"
        number, text = (left, right) if left.kind in NUMERIC else (right, left)
        otherwise = ARITHMETIC_DATE_HINT if DATES & {left.kind, right.kind} else ARITHMETIC_HINT
        return self.fix(number, text, otherwise) if number.kind in NUMERIC else otherwise

    def call(self, node: ast.Call, name: str, args: list[Typed]) -> Typed:
        signature = SIGNATURES[name]
        fewest, most = signature.arity
        if len(args) < fewest or (most is not None and len(args) > most):
            count = f"{len(args)} argument{'' if len(args) == 1 else 's'}"
            raise ExpressionTypeError(f"calls {name}() with {count}; write {signature.usage}")
        for index, arg in enumerate(args):
            allowed = signature.takes[min(index, len(signature.takes) - 1)]
            if allowed is None or arg.kind not in NUMERIC | TEXTUAL | {"tuple"} or arg.kind in allowed:
                continue
            hint = f"write {signature.usage} with {signature.needs}"
            if allowed >= NUMERIC and arg.kind == "string":
                hint = self.fix(Typed("number", "number", arg.node), arg, hint)
            raise ExpressionTypeError(f"passes {self.named(arg)} to {name}(), which takes {signature.needs}; {hint}")
        if signature.gives != "unknown":
            return Typed(signature.gives, signature.label, node)
        known = [arg for arg in args if arg.kind not in ("none", "unknown")]
        if len(args) == 1 and name != "coalesce":
            return Typed("unknown", "", node)  # min/max of one list
        if name != "coalesce":  # min and max compare their arguments; coalesce only picks one
            for first, second in itertools.pairwise(known):
                self.meet(first, second)
        kinds = {arg.kind for arg in known}
        if len(kinds) == 1:
            labels = {arg.label for arg in known}
            return Typed(known[0].kind, known[0].label if len(labels) == 1 else known[0].kind, node)
        return Typed("unknown", "", node)


def _not_a_date(kind: Kind) -> str:
    example = "'2026-03-16'" if kind == "date" else "'2026-03-16T10:00:00'"
    return f"which is not a {kind}; write an ISO {kind} such as {example}, or use today or add_days(today, n)"


def _label(declared: str) -> str:
    return "key" if declared in ("id", "ref") else declared


def _literals(node: ast.expr) -> Iterator[str | int | float]:
    """The literal values an expression may give directly: a constant, or the branches of `a if c else b`."""
    if (
        isinstance(node, ast.Constant)
        and isinstance(node.value, str | int | float)
        and not isinstance(node.value, bool)
    ):
        yield node.value
    elif isinstance(node, ast.IfExp):
        yield from _literals(node.body)
        yield from _literals(node.orelse)


def _parse(source: str) -> ast.expr:
    return ast.parse(source.strip(), mode="eval").body


def check_expression_types(
    source: str, rows: Mapping[str, EntitySpec | None], params: Sequence[ParamSpec] = ()
) -> None:
    """Raise ExpressionTypeError where two parts of a parsed, resolved expression cannot meet."""
    _Inferrer(source, rows, params).infer(_parse(source))


def check_value_type(
    field: FieldSpec,
    entity: str,
    source: str,
    rows: Mapping[str, EntitySpec | None],
    params: Sequence[ParamSpec],
    *,
    matched: bool = False,
) -> None:
    """Raise ExpressionTypeError where the value `source` cannot be stored in `field` of `entity` (or, `matched`,
    can never equal what the field holds)."""
    inferrer = _Inferrer(source, rows, params)
    value = inferrer.infer(_parse(source))
    verb, joint = ("matches", "with") if matched else ("sets", "to")
    target = f"{verb} {_label(field.type)} '{entity}.{field.name}' {joint}"
    if field.values:
        for given in _literals(value.node):
            if given not in field.values:
                hint = did_you_mean(str(given), field.values) or f"; its values are {', '.join(field.values)}"
                raise ExpressionTypeError(f"{target} {given!r}, which is not one of its values{hint}")
    kind = _DECLARED[field.type]
    literal = value.node.value if isinstance(value.node, ast.Constant) else None
    if kind in NUMERIC and value.kind in TEXTUAL:
        if isinstance(literal, str) and _NUMBER_TEXT.match(literal.strip()):
            return  # the column's affinity stores '3' as 3
        holds = "true or false" if kind == "boolean" else "numbers"
        fix = inferrer.fix(Typed(kind, field.type, value.node), value, f"the field holds {holds}")
        raise ExpressionTypeError(f"{target} {inferrer.named(value)}; {fix}")
    if kind in DATES and value.kind in NUMERIC:
        raise ExpressionTypeError(
            f"{target} {inferrer.named(value)}; a {kind} is written as today, add_days(today, n) or an "
            "ISO text such as '2026-03-16'"
        )
    if kind in DATES and isinstance(literal, str) and not is_date_text(literal):
        raise ExpressionTypeError(f"{target} {inferrer.named(value)}, {_not_a_date(kind)}")


def check_amount_type(
    what: str, source: str, rows: Mapping[str, EntitySpec | None], params: Sequence[ParamSpec]
) -> None:
    """Raise ExpressionTypeError where the amount of an increment or decrement is not a number."""
    inferrer = _Inferrer(source, rows, params)
    value = inferrer.infer(_parse(source))
    if value.kind in TEXTUAL:
        fix = inferrer.fix(Typed("number", "number", value.node), value, "the amount is a number")
        raise ExpressionTypeError(f"{what} by {inferrer.named(value)}; {fix}")

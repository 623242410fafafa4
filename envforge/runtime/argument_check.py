"""A tool's arguments checked against its JSON Schema by a check compiled once per tool.

jsonschema's validator walks the schema on every call, building a validator per sub-schema it descends into: about a
third of a WRITE call's time. The parameter schemas envforge generates use a few keywords (`type`, `properties`,
`required`, `additionalProperties: false`, `enum`, bounds on numbers and lengths), so each tool's schema compiles to
plain Python checks. The compiled check only ever accepts: arguments it does not accept, and every schema with a
keyword it does not know, go to jsonschema, which alone refuses and says why. So it can be stricter than jsonschema
(it sends `5.0` for an integer there) but never more lenient, and no verdict differs from jsonschema's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from functools import reduce
from typing import Any, Protocol

from jsonschema import Draft202012Validator, ValidationError

Check = Callable[[Any], bool]

ANNOTATIONS = frozenset({"description", "default", "title", "examples", "format"})
"""Keywords that do not constrain a value (`format` too: the validator is built without a format checker)."""
_VALUE_KEYWORDS = frozenset({"type", "enum", "minimum", "maximum", "minLength", "maxLength"}) | ANNOTATIONS
_OBJECT_KEYWORDS = frozenset({"type", "properties", "required", "additionalProperties"}) | ANNOTATIONS


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float)


_TYPES: dict[str, Check] = {
    "string": lambda value: isinstance(value, str),
    # Only Python ints: jsonschema also counts 5.0 as an integer, and such a value is left to it.
    "integer": lambda value: isinstance(value, int) and not isinstance(value, bool),
    "number": _number,
    "boolean": lambda value: isinstance(value, bool),
    "null": lambda value: value is None,
}


class ArgumentValidator(Protocol):
    """What dispatch asks of a tool's validator (jsonschema's validators have it too)."""

    def is_valid(self, instance: Any) -> bool: ...

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]: ...


class CompiledValidator:
    """A tool's compiled check, with jsonschema behind it for what the check does not accept."""

    def __init__(self, schema: Mapping[str, Any]) -> None:
        self.schema = Draft202012Validator(schema)
        self.check = compile_check(schema)
        """None where the schema uses a keyword the compiled checks do not know: jsonschema decides every call."""

    def is_valid(self, instance: Any) -> bool:
        return (self.check is not None and self.check(instance)) or self.schema.is_valid(instance)

    def iter_errors(self, instance: Any) -> Iterator[ValidationError]:
        return self.schema.iter_errors(instance)


def compile_check(schema: Mapping[str, Any]) -> Check | None:
    """A check that accepts only objects `schema` accepts; None if `schema` is not an object schema of the
    keywords this module knows."""
    if schema.get("type") != "object" or not _OBJECT_KEYWORDS.issuperset(schema):
        return None
    extra = schema.get("additionalProperties", True)
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    if not isinstance(extra, bool) or not isinstance(properties, dict) or not isinstance(required, list):
        return None
    checks: dict[str, Check] = {}
    for name, value_schema in properties.items():
        check = _value_check(value_schema)
        if check is None:
            return None
        checks[name] = check
    needed = frozenset(required)
    known = frozenset(checks)

    def check_object(instance: Any) -> bool:
        if not isinstance(instance, dict) or not needed.issubset(instance):
            return False
        if not extra and not known.issuperset(instance):
            return False
        for name, value in instance.items():
            check = checks.get(name)
            if check is not None and not check(value):
                return False
        return True

    return check_object


def _value_check(schema: Any) -> Check | None:
    if not isinstance(schema, dict) or not _VALUE_KEYWORDS.issuperset(schema):
        return None
    checks: list[Check] = []
    declared = schema.get("type")
    if declared is not None:
        names = declared if isinstance(declared, list) else [declared]
        if not all(isinstance(name, str) and name in _TYPES for name in names):
            return None
        checks.append(reduce(_either, [_TYPES[name] for name in names]))
    if "enum" in schema:
        members = schema["enum"]
        if not isinstance(members, list) or not all(_scalar(member) for member in members):
            return None
        # Typed pairs, so True is not taken for 1 (jsonschema tells them apart too).
        allowed = frozenset((type(member), member) for member in members)
        checks.append(lambda value: _scalar(value) and (type(value), value) in allowed)
    bounds = _bounds(schema)
    if bounds is None:
        return None
    checks.extend(bounds)
    first: Check = _anything
    return reduce(_both, checks, first)


def _anything(value: Any) -> bool:
    return True


def _either(first: Check, second: Check) -> Check:
    return lambda value: first(value) or second(value)


def _both(first: Check, second: Check) -> Check:
    # Chained closures, not a loop over a list: a check runs on every argument of every call.
    return second if first is _anything else lambda value: first(value) and second(value)


def _bounds(schema: dict[str, Any]) -> list[Check] | None:
    """Checks of `minimum`, `maximum`, `minLength` and `maxLength`, each on the values it applies to."""
    checks: list[Check] = []
    low, high = schema.get("minimum"), schema.get("maximum")
    shortest, longest = schema.get("minLength"), schema.get("maxLength")
    if not all(bound is None or _number(bound) for bound in (low, high)):
        return None
    if not all(
        bound is None or (isinstance(bound, int) and not isinstance(bound, bool)) for bound in (shortest, longest)
    ):
        return None
    if low is not None:
        checks.append(lambda value: not _number(value) or value >= low)
    if high is not None:
        checks.append(lambda value: not _number(value) or value <= high)
    if shortest is not None:
        checks.append(lambda value: not isinstance(value, str) or len(value) >= shortest)
    if longest is not None:
        checks.append(lambda value: not isinstance(value, str) or len(value) <= longest)
    return checks

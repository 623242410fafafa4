"""Arguments for tool tests: hypothesis strategies for valid calls and a catalogue of invalid ones."""

from __future__ import annotations

import contextlib
import json
import math
import operator
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any
from unittest import mock

from hypothesis import HealthCheck, Phase, find, settings
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample, Unsatisfiable
from hypothesis.internal.conjecture import providers
from hypothesis.internal.constants_ast import Constants

from envforge.ir.toolspec import JSONSchema, ToolSpec

# SQLite integers are 64-bit; wider values are refused by the engine, not by the schema (see the stage's notes).
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# SQLite's LIKE stops at a NUL and lone surrogates cannot be encoded: both are left to the engine's own tests.
TEXT_ALPHABET = st.characters(codec="utf-8", exclude_characters="\x00")
TEXT_MAX = 40
"""Longest random string; longer ones come from the boundary value at `maxLength`."""
DATE_SPAN_DAYS = 1000
EVERYDAY_SPAN = 100
"""Width of the range of everyday amounts drawn above a number's minimum."""
BATCH = 6
"""Argument dicts per hypothesis example: hypothesis's per-example overhead, not the calls, dominates the cost."""
UNKNOWN_ID = "ZZZ-000000"
SQL_STRINGS = ("'", '"', ";", "--", "%", "_", "' OR '1'='1", "'; DROP TABLE customer; --", '" OR ""="', "100%_off /*")
UNICODE_STRINGS = ("Zoë", "東京", "😀", "\u202eevil", "İstanbul", "straße")
LONG_STRING = ("ab'%_é" * 834)[:5000]
BOUNDARY_CHAR = "é"
"""Fills strings of exactly `maxLength` characters; two bytes in UTF-8, so lengths are counted in characters."""
WRONG_TYPES: dict[str, tuple[Any, ...]] = {
    "string": (7, 1.5, True, None, ["x"], {"x": 1}),
    "integer": ("1", 1.5, True, None, [1]),
    "number": ("1.5", True, None, [1.5]),
    "boolean": ("true", 1, None),
}


@dataclass(frozen=True)
class Known:
    """Facts about the initial state that let generated arguments point at real records."""

    keys: dict[str, list[str]]
    """Entity -> keys of its rows."""
    strings: dict[tuple[str, str], list[str]]
    """(entity, field) -> the field's distinct string values, sorted."""
    clock: datetime
    """The environment's frozen now."""
    owned: dict[str, dict[str, list[str]]]
    """Entity -> person key -> keys of the entity's rows that belong to that person."""

    def existing(self, entity: str, field: str) -> list[str]:
        """Values of `field` on `entity`, or else on the first entity (by name) that has such a field."""
        if (entity, field) in self.strings:
            return self.strings[entity, field]
        return next((values for (_, name), values in sorted(self.strings.items()) if name == field), [])


def _types(schema: JSONSchema) -> list[str]:
    kind = schema.get("type", "string")
    return list(kind) if isinstance(kind, list) else [kind]


def _properties(tool: ToolSpec) -> dict[str, JSONSchema]:
    """The tool's parameters by name: a toolgraph read back from disk has its keys sorted, so sort always."""
    properties: dict[str, JSONSchema] = tool.parameters.get("properties", {})
    return dict(sorted(properties.items()))


def _whole(low: float, high: float) -> tuple[int, int]:
    # Clamp first: an unbounded side is +-inf, and ceil/floor of an infinity raise.
    return math.ceil(max(INT64_MIN, low)), math.floor(min(INT64_MAX, high))


def _integers(schema: JSONSchema) -> st.SearchStrategy[Any]:
    low, high = _whole(schema.get("minimum", INT64_MIN), schema.get("maximum", INT64_MAX))
    options: list[st.SearchStrategy[Any]] = [st.integers(low, high), st.sampled_from(sorted({low, high}))]
    small_low, small_high = max(low, -1000), min(high, 1000)
    if small_low <= small_high:
        # JSON has one number type: 3.0 is a valid integer too.
        options.append(st.integers(small_low, small_high).map(float))
    return st.one_of(*options)


def _numbers(schema: JSONSchema) -> st.SearchStrategy[Any]:
    low, high = schema.get("minimum"), schema.get("maximum")
    options: list[st.SearchStrategy[Any]] = [st.floats(low, high, allow_nan=False, allow_infinity=False)]
    # Everyday amounts in cents: policies tend to cap amounts far below a schema's maximum.
    cents_low = math.ceil((0 if low is None else low) * 100)
    cents_high = math.floor(min(cents_low / 100 + EVERYDAY_SPAN, math.inf if high is None else high) * 100)
    if cents_low <= cents_high:
        options.append(st.integers(cents_low, cents_high).map(lambda cents: cents / 100))
    bounds = [bound for bound in (low, high) if bound is not None]
    if bounds:
        options.append(st.sampled_from(bounds))
    whole_low, whole_high = _whole(-math.inf if low is None else low, math.inf if high is None else high)
    if whole_low <= whole_high:
        options.append(st.integers(whole_low, whole_high))
    return st.one_of(*options)


def _strings(schema: JSONSchema, existing: list[str], clock: datetime) -> st.SearchStrategy[Any]:
    if schema.get("format") in ("date", "date-time"):
        span = timedelta(days=DATE_SPAN_DAYS)
        moments = st.datetimes(clock - span, clock + span)
        dates = moments.map(
            lambda moment: moment.date().isoformat() if schema["format"] == "date" else moment.isoformat()
        )
        return st.one_of(dates, st.sampled_from(existing)) if existing else dates
    low: int = schema.get("minLength", 0)
    high: int | None = schema.get("maxLength")

    def fits(text: str) -> bool:
        return low <= len(text) and (high is None or len(text) <= high)

    cap = TEXT_MAX if high is None else min(high, TEXT_MAX)
    options: list[st.SearchStrategy[str]] = [st.text(TEXT_ALPHABET, min_size=low, max_size=max(cap, low))]
    fixed = [text for text in (*SQL_STRINGS, *UNICODE_STRINGS) if fits(text)]
    if fixed:
        options.append(st.sampled_from(fixed))
    known = [text for text in existing if fits(text)]
    if known:
        prefix = st.text(TEXT_ALPHABET, min_size=1, max_size=3)
        options += [st.sampled_from(known), st.builds(operator.add, prefix, st.sampled_from(known)).filter(fits)]
    if high is not None and high >= max(low, 1):
        options.append(st.just(BOUNDARY_CHAR * high))
    return st.one_of(*options)


def _value(tool: ToolSpec, name: str, schema: JSONSchema, known: Known) -> st.SearchStrategy[Any]:
    if name in tool.param_refs:
        keys = known.keys.get(tool.param_refs[name], [])
        return st.sampled_from(keys) if keys else st.just(UNKNOWN_ID)
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    options: list[st.SearchStrategy[Any]] = []
    for kind in _types(schema):
        if kind == "null":
            options.append(st.none())
        elif kind == "boolean":
            options.append(st.booleans())
        elif kind == "integer":
            options.append(_integers(schema))
        elif kind == "number":
            options.append(_numbers(schema))
        else:
            options.append(_strings(schema, known.existing(tool.entity, name), known.clock))
    return st.one_of(*options)


def _arguments(values: dict[str, st.SearchStrategy[Any]], required: set[str]) -> st.SearchStrategy[dict[str, Any]]:
    return st.fixed_dictionaries(
        {name: strategy for name, strategy in values.items() if name in required},
        optional={name: strategy for name, strategy in values.items() if name not in required},
    )


def _one_owner(
    values: dict[str, st.SearchStrategy[Any]], required: set[str], refs: dict[str, str], known: Known
) -> st.SearchStrategy[dict[str, Any]] | None:
    """Arguments whose keys all belong to one person: independent keys rarely fit an action's preconditions."""
    owned = {name: known.owned[entity] for name, entity in refs.items() if entity in known.owned}
    people = sorted(set.intersection(*(set(by_person) for by_person in owned.values()))) if len(owned) > 1 else []
    if not people:
        return None

    def for_person(person: str) -> st.SearchStrategy[dict[str, Any]]:
        keys = {name: st.sampled_from(by_person[person]) for name, by_person in owned.items()}
        return _arguments({**values, **keys}, required)

    return st.sampled_from(people).flatmap(for_person)


def valid_arguments(tool: ToolSpec, known: Known) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments that satisfy the tool's schema, with every key drawn from existing rows."""
    properties = _properties(tool)
    required = set(tool.parameters.get("required", []))
    values = {name: _value(tool, name, schema, known) for name, schema in properties.items()}
    independent = _arguments(values, required)
    refs = {name: tool.param_refs[name] for name in properties if name in tool.param_refs}
    related = _one_owner(values, required, refs, known)
    return independent if related is None else st.one_of(independent, related)


def _distinct(calls: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    seen: dict[str, dict[str, Any]] = {}
    for call in calls:
        seen.setdefault(json.dumps(call, sort_keys=True), call)
    return list(seen.values())


@contextlib.contextmanager
def _without_local_constants() -> Iterator[None]:
    """Keep hypothesis from mixing in literals of the local modules imported so far.

    It does that for a small share of draws: what was drawn then depended on the imports of the process,
    on where envforge is installed (site-packages is not local) and on every literal in its source.
    """
    providers.CONSTANTS_CACHE.cache.clear()
    try:
        with mock.patch.object(providers, "_get_local_constants", Constants):
            yield
    finally:
        providers.CONSTANTS_CACHE.cache.clear()


def draw_examples(strategy: st.SearchStrategy[dict[str, Any]], *, count: int, seed_value: int) -> list[dict[str, Any]]:
    """Up to `count` distinct examples of `strategy`, the same ones on every run for the same seed.

    The engine's randomness comes from a `random.Random` we seed: with `derandomize` alone, what it drew
    inside one process shifted with what had been imported before, which broke byte-identical builds."""
    drawn: list[dict[str, Any]] = []

    def collect(batch: list[dict[str, Any]]) -> bool:
        drawn.extend(batch)
        return len(_distinct(drawn)) >= count

    with _without_local_constants(), contextlib.suppress(NoSuchExample, Unsatisfiable):
        find(
            st.lists(strategy, min_size=BATCH, max_size=BATCH),
            collect,
            settings=settings(
                database=None,
                max_examples=max(1, math.ceil(count / BATCH)),
                deadline=None,
                phases=[Phase.generate],
                suppress_health_check=list(HealthCheck),
            ),
            random=random.Random(seed_value),
        )
    return _distinct(drawn)[:count]


def _base_value(tool: ToolSpec, name: str, schema: JSONSchema, known: Known) -> Any:
    if name in tool.param_refs:
        return next(iter(known.keys.get(tool.param_refs[name], [])), UNKNOWN_ID)
    if "enum" in schema:
        return next(value for value in schema["enum"] if value is not None)
    kind = next(kind for kind in _types(schema) if kind != "null")
    low, high = schema.get("minimum", -math.inf), schema.get("maximum", math.inf)
    if kind == "boolean":
        return False
    if kind == "integer":
        return 1 if low <= 1 <= high else math.ceil(low) if low > 1 else math.floor(high)
    if kind == "number":
        return float(min(max(1.0, low), high))
    if schema.get("format") == "date":
        return known.clock.date().isoformat()
    return "x" * max(1, schema.get("minLength", 0))


def _bad_values(tool: ToolSpec, name: str, schema: JSONSchema) -> list[Any]:
    kinds = _types(schema)
    values: list[Any] = [value for kind in kinds for value in WRONG_TYPES.get(kind, ())]
    low, high = schema.get("minimum"), schema.get("maximum")
    step = 1 if "integer" in kinds else 0.01
    if low is not None:
        values += [low - step, low - 1]
    if high is not None:
        values.append(high + step)
    if "enum" in schema:
        first = next((value for value in schema["enum"] if isinstance(value, str)), "value")
        values += ["NOT_A_VALUE", first.upper(), f" {first}", "", SQL_STRINGS[7]]
    if "string" in kinds:
        if name in tool.param_refs:
            values += [UNKNOWN_ID, *SQL_STRINGS]
        if "maxLength" in schema:
            values.append("y" * (schema["maxLength"] + 1))
        if schema.get("minLength", 0) > 0:
            values.append("")
        values += [LONG_STRING, SQL_STRINGS[6], SQL_STRINGS[7]]
    return values


def invalid_arguments(tool: ToolSpec, known: Known) -> list[dict[str, Any]]:
    """Calls that each break one rule: a missing, extra, mistyped or out-of-range argument, or an unknown id."""
    properties = _properties(tool)
    required: list[str] = tool.parameters.get("required", [])
    base = {name: _base_value(tool, name, schema, known) for name, schema in properties.items()}
    calls = [{key: value for key, value in base.items() if key != name} for name in required]
    if required:
        calls.append({})
    calls += [{**base, "unexpected_argument": 1}, {**base, SQL_STRINGS[7]: "x"}]
    for name, schema in properties.items():
        calls += [{**base, name: value} for value in _bad_values(tool, name, schema)]
    return _distinct(calls)

"""Tool arguments are checked by a check compiled once per tool, whose verdict is always jsonschema's."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, ValidationError

from envforge.hashing import canonical_json
from envforge.ir.loading import load_blueprint
from envforge.runtime.argument_check import CompiledValidator, compile_check
from envforge.runtime.environment import Environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.session import Session
from envforge.stages.ontology.build import build_ontology
from envforge.stages.toolgraph.build import build_toolgraph
from tests.conftest import BLUEPRINTS
from tests.runtime.probes import first

JSON_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**40), 2**40), st.floats(allow_nan=False), st.text(max_size=30)
)
JSON_VALUES = st.recursive(
    JSON_SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=6,
)


def _near(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values on and just past each bound of `schema`, its enum members in other types and cases, and the
    JSON values a careless agent sends (`5.0` for 5, `true` for 1, a string for a number)."""
    edges: list[Any] = [True, False, 0, 1, 1.0, "", "1", None, [], {}]
    for bound in ("minimum", "maximum"):
        if bound in schema:
            value = schema[bound]
            edges += [value, value - 1, value + 1, value - 0.5, value + 0.5, float(value), str(value)]
    for bound in ("minLength", "maxLength"):
        if bound in schema:
            edges += ["x" * max(0, schema[bound] + delta) for delta in (-1, 0, 1)]
    for member in schema.get("enum", []):
        edges += [member, str(member).upper(), f" {member}"] if member is not None else [member]
    return st.sampled_from(edges) | JSON_VALUES


def _allowed(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    """Values `schema` allows, drawn by its type within its bounds."""
    if "enum" in schema:
        return st.sampled_from(schema["enum"])
    kinds = schema.get("type", "string")
    strategies: list[st.SearchStrategy[Any]] = []
    for kind in kinds if isinstance(kinds, list) else [kinds]:
        low, high = schema.get("minimum"), schema.get("maximum")
        if kind == "integer":
            strategies.append(st.integers(None if low is None else int(low), None if high is None else int(high)))
        elif kind == "number":
            strategies.append(st.floats(low, high, allow_nan=False, allow_infinity=False))
        elif kind == "boolean":
            strategies.append(st.booleans())
        elif kind == "null":
            strategies.append(st.none())
        else:
            longest = min(schema.get("maxLength", 20), 20)
            strategies.append(st.text(min_size=min(schema.get("minLength", 0), longest), max_size=longest))
    return st.one_of(strategies)


def _arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    """Arguments for an object schema: its required properties (each mostly allowed, now and then near a bound
    or of another type), some optional ones, and now and then a stray one."""
    properties: dict[str, Any] = schema.get("properties", {})
    values = {name: st.one_of(_allowed(value), _allowed(value), _near(value)) for name, value in properties.items()}
    required = set(schema.get("required", []))
    given = st.fixed_dictionaries(
        {name: value for name, value in values.items() if name in required},
        optional={name: value for name, value in values.items() if name not in required},
    )
    return st.tuples(given, st.dictionaries(st.sampled_from(["stray", *properties]), JSON_SCALARS, max_size=1)).map(
        lambda parts: {**parts[1], **parts[0]}
    )


def _schemas() -> dict[str, dict[str, Any]]:
    """The parameter schema of every tool of every shipped domain, each distinct one once, by a tool it belongs to."""
    schemas: dict[str, dict[str, Any]] = {}
    for path in BLUEPRINTS:
        blueprint = load_blueprint(path)
        for tool in build_toolgraph(blueprint, build_ontology(blueprint)).tools:
            schemas.setdefault(canonical_json(tool.parameters), {"tool": f"{path.stem}/{tool.name}", **tool.parameters})
    return {schema.pop("tool"): schema for schema in schemas.values()}


SCHEMAS = _schemas()


def test_every_generated_tool_schema_compiles_to_a_check() -> None:
    assert [tool for tool, schema in SCHEMAS.items() if compile_check(schema) is None] == []


@settings(max_examples=1000, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SCHEMAS)).flatmap(lambda tool: st.tuples(st.just(tool), _arguments(SCHEMAS[tool]))))
def test_a_compiled_check_accepts_only_what_jsonschema_accepts_so_no_verdict_differs(
    drawn: tuple[str, dict[str, Any]],
) -> None:
    tool, arguments = drawn
    schema = SCHEMAS[tool]
    valid = Draft202012Validator(schema).is_valid(arguments)
    check = compile_check(schema)
    assert check is not None
    if check(arguments):
        assert valid
    assert CompiledValidator(schema).is_valid(arguments) == valid
    event("accepted by the compiled check" if check(arguments) else "left to jsonschema")
    event("valid" if valid else "invalid")


@pytest.mark.parametrize(
    ("schema", "arguments"),
    [
        ({"type": "object", "properties": {"n": {"type": "integer"}}}, {"n": 5.0}),
        ({"type": "object", "properties": {"n": {"type": "integer", "enum": [1]}}}, {"n": 1.0}),
        ({"type": "object", "properties": {"s": {"type": "string", "pattern": "^a"}}}, {"s": "abc"}),
        ({"type": "object", "properties": {"s": {"type": ["string", "null"], "enum": ["a", None]}}}, {"s": None}),
    ],
)
def test_what_the_compiled_check_leaves_to_jsonschema_is_accepted_as_jsonschema_accepts_it(
    schema: dict[str, Any], arguments: dict[str, Any]
) -> None:
    assert CompiledValidator(schema).is_valid(arguments)


def test_a_boolean_is_not_taken_for_the_number_an_enum_or_a_bound_names() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "enum": [1, 2]}, "m": {"type": "number", "minimum": 0}},
        "additionalProperties": False,
    }
    compiled = CompiledValidator(schema)
    assert not compiled.is_valid({"n": True})
    assert not compiled.is_valid({"m": False})
    assert compiled.is_valid({"n": 1, "m": 0})


class CountingSchema:
    """jsonschema's validator, counting what it is asked."""

    def __init__(self, schema: dict[str, Any]) -> None:
        self.validator = Draft202012Validator(schema)
        self.asked = 0

    def is_valid(self, instance: Any) -> bool:
        self.asked += 1
        return self.validator.is_valid(instance)

    def iter_errors(self, instance: Any) -> Any:
        self.asked += 1
        return self.validator.iter_errors(instance)


def test_valid_calls_never_reach_jsonschema_and_a_refusal_still_says_what_jsonschema_says(
    retail_env: Environment, monkeypatch: pytest.MonkeyPatch
) -> None:
    env = retail_env
    validator = env.validators["get_customer"]
    assert isinstance(validator, CompiledValidator)
    counting = CountingSchema(env.tools["get_customer"].parameters)
    monkeypatch.setattr(validator, "schema", counting)
    session = Session(env)
    customer = first(session, "list_customers")["customer_id"]
    for _ in range(50):
        session.call("get_customer", {"customer_id": customer})
    assert counting.asked == 0
    ok, result = session.call_tool("get_customer", {"customer_id": 7})
    assert not ok
    assert counting.asked > 0
    error = next(iter(Draft202012Validator(env.tools["get_customer"].parameters).iter_errors({"customer_id": 7})))
    assert isinstance(error, ValidationError)
    assert refusal_of(result)["message"] == f"argument 'customer_id': {error.message}"

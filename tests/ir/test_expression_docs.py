"""docs/expressions.md documents the expression language the evaluator runs, and the schema points to it."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from envforge.ir.expression_checks import CLOCK_NAMES
from envforge.ir.expression_types import SIGNATURES
from envforge.ir.expressions import FUNCTIONS
from envforge.ir.schema import render_schema
from envforge.ir.syntax import EXPRESSION_DOCS
from tests.conftest import REPO

DOCS = REPO / "docs" / "expressions.md"
DOCS_TEXT = DOCS.read_text(encoding="utf-8")
FUNCTION_ROW = re.compile(r"^\| `([a-z_]+)\(", re.MULTILINE)


def test_every_function_the_evaluator_knows_has_a_row_in_the_function_table_and_no_other_does() -> None:
    assert sorted(FUNCTION_ROW.findall(DOCS_TEXT)) == sorted(FUNCTIONS)


def test_each_function_row_shows_how_the_function_is_written() -> None:
    rows = {
        match.group(1): match.string[match.start() : DOCS_TEXT.index("\n", match.start())]
        for match in FUNCTION_ROW.finditer(DOCS_TEXT)
    }
    for name, signature in SIGNATURES.items():
        assert f"`{signature.usage}`" in rows[name], name


def test_the_names_every_expression_may_read_are_documented() -> None:
    for name in ("args", *sorted(CLOCK_NAMES)):
        assert f"- `{name}`" in DOCS_TEXT or f"`{name}.<" in DOCS_TEXT, name


def test_every_expression_field_of_the_schema_points_to_the_docs() -> None:
    schema = json.loads(render_schema())
    require = schema["$defs"]["ConditionSpec"]["properties"]["require"]["description"]
    assert require == f"Must be true before any effect is applied. {EXPRESSION_DOCS}"
    match = schema["$defs"]["BindingSpec"]["properties"]["match"]["anyOf"][0]["patternProperties"]
    assert [value["description"] for value in match.values()] == [EXPRESSION_DOCS]
    assert "docs/expressions.md" in EXPRESSION_DOCS
    expressions = list(_strings_of_at_most_500(schema))
    assert len(expressions) > 10
    assert all(str(node.get("description", "")).endswith(EXPRESSION_DOCS) for node in expressions)


def _strings_of_at_most_500(node: Any) -> Iterator[dict[str, Any]]:
    """Every schema node of Expression's shape (the only strings of 1 to 500 characters)."""
    if isinstance(node, dict):
        if node.get("type") == "string" and node.get("maxLength") == 500:
            yield node
        for value in node.values():
            yield from _strings_of_at_most_500(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings_of_at_most_500(value)

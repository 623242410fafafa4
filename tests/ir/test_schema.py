"""blueprints/schema.json is the JSON Schema of the IR, and every shipped blueprint satisfies it."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from envforge.ir.schema import render_schema
from tests.conftest import REPO, SINGLE_BLUEPRINTS

SCHEMA = REPO / "blueprints" / "schema.json"


def test_the_committed_schema_matches_the_models() -> None:
    assert SCHEMA.read_text(encoding="utf-8") == render_schema(), (
        "blueprints/schema.json drifted from envforge/ir; regenerate it with `envforge schema -o blueprints/schema.json`"
    )


def test_field_docstrings_become_schema_descriptions() -> None:
    schema = json.loads(render_schema())
    field = schema["$defs"]["FieldSpec"]["properties"]
    assert "Foreign keys end with `_id`" in field["name"]["description"]
    assert schema["$defs"]["FieldSpec"]["additionalProperties"] is False


@pytest.mark.parametrize("blueprint", SINGLE_BLUEPRINTS, ids=lambda path: path.stem)
def test_every_shipped_blueprint_validates_against_the_schema(blueprint: Path) -> None:
    data = json.loads(json.dumps(yaml.safe_load(blueprint.read_text(encoding="utf-8")), default=str))
    data["clock"] = data["clock"].replace(" ", "T")
    jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text(encoding="utf-8"))).validate(data)

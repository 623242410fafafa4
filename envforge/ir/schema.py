"""The blueprint JSON Schema, generated from the IR models (blueprints/schema.json is this output)."""

from __future__ import annotations

import json

from envforge.ir.blueprint import Blueprint


def render_schema() -> str:
    schema = Blueprint.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "envforge-blueprint-v1"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"

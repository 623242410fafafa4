"""JSON Schema fragments for blueprint field and argument types."""

from __future__ import annotations

from typing import Any

from envforge.ir.blueprint import FieldSpec, ParamSpec

_JSON_TYPES = {
    "id": "string",
    "ref": "string",
    "string": "string",
    "text": "string",
    "integer": "integer",
    "number": "number",
    "money": "number",
    "boolean": "boolean",
    "date": "string",
    "datetime": "string",
    "enum": "string",
}


def value_schema(spec: FieldSpec | ParamSpec, *, nullable: bool = False) -> dict[str, Any]:
    """The JSON Schema of one field value or argument."""
    kind = "string" if isinstance(spec, ParamSpec) and spec.ref else spec.type
    schema: dict[str, Any] = {"type": _JSON_TYPES[kind]}
    if spec.description:
        schema["description"] = spec.description
    if kind == "date":
        schema["format"] = "date"
    elif kind == "datetime":
        schema["format"] = "date-time"
    if spec.values:
        schema["enum"] = list(spec.values)
    if spec.minimum is not None:
        schema["minimum"] = spec.minimum
    if spec.maximum is not None:
        schema["maximum"] = spec.maximum
    if spec.max_length is not None:
        schema["maxLength"] = spec.max_length
    if kind in ("string", "text") and isinstance(spec, ParamSpec):
        schema.setdefault("maxLength", 2000)
        schema["minLength"] = 1
    if nullable:
        schema["type"] = [schema["type"], "null"]
        if "enum" in schema:
            schema["enum"] = [*schema["enum"], None]
    return schema

"""JSON Schemas of the blueprint-writing steps, derived from the IR and from earlier answers.

Each step asks the model for one small part of a blueprint. Its schema is what the server's
grammar-constrained decoding enforces, so names match the IR's patterns and every reference
(an entity, a field, an enum value) is one of the names already chosen: valid by construction.
"""

from __future__ import annotations

import typing
from typing import Any

from envforge.ir.blueprint import Blueprint, EntitySpec, FieldSpec, FieldType, PersonaSpec

JSONSchema = dict[str, Any]

_IR = Blueprint.model_json_schema()
IDENTIFIER = str(_IR["$defs"]["FieldSpec"]["properties"]["name"]["pattern"])
"""The IR's lower_snake_case name pattern."""
NAME = IDENTIFIER.replace("{0,62}", "{1,23}")
"""IDENTIFIER limited to 2 to 24 characters, so a small model cannot ramble in a name."""
ACTION_VERBS = (
    "add", "approve", "assign", "book", "cancel", "change", "close", "complete", "confirm", "create", "issue",
    "mark", "move", "open", "order", "pay", "record", "refund", "register", "remove", "renew", "reopen",
    "request", "reschedule", "reserve", "return", "schedule", "set", "submit", "transfer", "update",
)  # fmt: skip
"""Verbs an action name may start with. A menu rather than free text: the names read as requests in task
instructions ("cancel my order"), and none can clash with a derived READ tool (get_, list_, find_)."""
ACTION_NAME = f"^({'|'.join(ACTION_VERBS)})_[a-z][a-z0-9_]{{1,23}}$"
"""`verb_noun`, as the IR asks of action names."""
DATA_TYPES = tuple(kind for kind in typing.get_args(FieldType) if kind not in ("id", "ref", "enum"))
"""Field types a model may give a column; keys and references are added when the blueprint is assembled."""
MAX_ENTITIES = 5
MAX_FIELDS = 5
MAX_ACTIONS = 4
MAX_PERSONAS = 3


def _doc(model: type[Any], name: str) -> str:
    """The IR's own description of a field: the same text documents the code and instructs the model."""
    return " ".join(str(model.model_fields[name].description or "").split())


def text(max_length: int, min_length: int = 1) -> JSONSchema:
    return {"type": "string", "minLength": min_length, "maxLength": max_length}


def name(pattern: str = NAME, description: str = "") -> JSONSchema:
    schema: JSONSchema = {"type": "string", "pattern": pattern}
    if description:
        schema["description"] = description
    return schema


def obj(properties: dict[str, JSONSchema]) -> JSONSchema:
    """An object with exactly these keys, in this order (the order the model writes them in)."""
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def array(items: JSONSchema, low: int, high: int) -> JSONSchema:
    return {"type": "array", "items": items, "minItems": low, "maxItems": high}


def domain_schema() -> JSONSchema:
    return obj(
        {
            "domain": name(description=_doc(Blueprint, "domain")),
            "title": text(80, 3),
            "description": text(400, 10),
            "agent_instructions": text(400, 10),
        }
    )


def entities_schema() -> JSONSchema:
    entity = obj({"name": name(description=_doc(EntitySpec, "name")), "description": text(160, 3)})
    return obj({"entities": array(entity, 2, MAX_ENTITIES)})


def person_schema(entities: list[str]) -> JSONSchema:
    return obj({"person": {"type": "string", "enum": entities, "description": _doc(Blueprint, "person")}})


def fields_schema() -> JSONSchema:
    """Plain columns, or enum columns with their values (an enum without values cannot be written)."""
    plain = obj(
        {
            "name": name(description=_doc(FieldSpec, "name")),
            "type": {"type": "string", "enum": list(DATA_TYPES)},
            "description": text(120),
        }
    )
    enum = obj(
        {
            "name": name(description=_doc(FieldSpec, "name")),
            "type": {"const": "enum"},
            "values": array(name(), 2, 6),
            "description": text(120),
        }
    )
    return obj({"fields": array({"anyOf": [plain, enum]}, 1, MAX_FIELDS)})


def links_schema(person: str, others: list[str]) -> JSONSchema:
    """Each entity belongs to the person or to an entity listed before it, so the graph is a tree rooted
    at the person (connected, acyclic, and seedable in list order); an optional second reference may point
    at any earlier entity."""
    properties: dict[str, JSONSchema] = {}
    for index, entity in enumerate(others):
        earlier = [person, *others[:index]]
        properties[entity] = obj(
            {
                "belongs_to": {"type": "string", "enum": earlier},
                "also_refers_to": {"type": "string", "enum": ["none", *[e for e in others[:index]]]},
            }
        )
    return obj(properties)


def personas_schema(knowable: list[str]) -> JSONSchema:
    persona = obj(
        {
            "name": name(description=_doc(PersonaSpec, "name")),
            "description": text(160, 3),
            "traits": array(text(24), 1, 3),
            "knows": array({"type": "string", "enum": knowable}, 1, 3),
        }
    )
    return obj({"personas": array(persona, 1, MAX_PERSONAS)})

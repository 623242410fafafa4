"""How tools are named: the one place that builds a tool's name or reads one apart.

Every entity gets READ tools named after it: `get_<entity>` (one row by key), `list_<plural>` (rows
by filters) and `find_<entity>_by_<field>` for each field that is unique and searchable. A WRITE tool
takes its action's name, `<verb>_<noun>` (`cancel_order`).
"""

from __future__ import annotations

from collections.abc import Iterable

from envforge.ir.blueprint import Blueprint, EntitySpec, FieldSpec


def plural_of(entity: EntitySpec) -> str:
    """The plural in the entity's `list_` tool: as declared, else the name with an `s`."""
    return entity.plural or f"{entity.name}s"


def get_tool_name(entity: str) -> str:
    return f"get_{entity}"


def list_tool_name(plural: str) -> str:
    return f"list_{plural}"


def find_tool_name(entity: str, field: str) -> str:
    return f"find_{entity}_by_{field}"


def find_fields(fields: Iterable[FieldSpec]) -> list[FieldSpec]:
    """The fields that get their own `find_` tool."""
    return [field for field in fields if field.unique and field.searchable]


def read_tool_names(blueprint: Blueprint) -> dict[str, str]:
    """Names of the READ tools derived from the entities -> their entity."""
    names: dict[str, str] = {}
    for entity in blueprint.entities:
        names[get_tool_name(entity.name)] = entity.name
        names[list_tool_name(plural_of(entity))] = entity.name
        for field in find_fields(entity.fields):
            names[find_tool_name(entity.name, field.name)] = entity.name
    return names


def split_action_name(name: str) -> tuple[str, str]:
    """`cancel_order` -> (`cancel`, `order`); the noun is empty for a one-word name."""
    verb, _, noun = name.partition("_")
    return verb, noun

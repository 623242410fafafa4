"""Submitted form values to tool arguments, and tool errors back to form messages.

The browser sends strings; the tool's JSON Schema says what each argument is. A value that cannot be
read as its type is a message on its field and no call is made; everything else is the tool's to judge,
so a form refuses exactly what an MCP call would.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from envforge.ir.apps import ActionForm


@dataclass
class ReadArguments:
    """Arguments read from a form, or the messages that stopped them."""

    arguments: dict[str, Any] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


def _types(schema: Mapping[str, Any]) -> list[str]:
    kind = schema.get("type", "string")
    return list(kind) if isinstance(kind, list) else [kind]


def read_value(raw: str, schema: Mapping[str, Any]) -> Any:
    """One submitted string as the type its schema wants; ValueError says why it cannot be."""
    types = _types(schema)
    if "boolean" in types:
        if raw.lower() in ("true", "on", "yes", "1"):
            return True
        if raw.lower() in ("false", "off", "no", "0"):
            return False
        raise ValueError("choose yes or no")
    if "integer" in types:
        try:
            number = float(raw)
        except ValueError:
            raise ValueError("enter a whole number") from None
        if not number.is_integer():
            raise ValueError("enter a whole number")
        return int(number)
    if "number" in types:
        try:
            return float(raw)
        except ValueError:
            raise ValueError("enter a number") from None
    return raw


def read_arguments(
    submitted: Mapping[str, str], parameters: Mapping[str, Any], names: list[str], checkboxes: set[str]
) -> ReadArguments:
    """The tool arguments among `names` from submitted strings; empty optional values are left out."""
    properties: Mapping[str, Any] = parameters.get("properties", {})
    read = ReadArguments()
    for name in names:
        schema = properties.get(name, {})
        raw = submitted.get(name, "").strip()
        if name in checkboxes:
            read.arguments[name] = raw.lower() in ("true", "on", "yes", "1")
            continue
        if raw == "":
            continue
        try:
            read.arguments[name] = read_value(raw, schema)
        except ValueError as error:
            read.errors[name] = str(error)
    return read


def form_arguments(form: ActionForm, submitted: Mapping[str, str], parameters: Mapping[str, Any]) -> ReadArguments:
    checkboxes = {f.name for f in form.fields if f.input == "checkbox"}
    return read_arguments(submitted, parameters, [f.name for f in form.fields], checkboxes)


def error_messages(result: Mapping[str, Any], fields: set[str]) -> tuple[dict[str, str], str | None]:
    """A refused call as (field messages, form message): a field the form shows gets its message there."""
    error: Mapping[str, Any] = result.get("error", {})
    message = str(error.get("message", "the action was refused"))
    name = error.get("field")
    if isinstance(name, str) and name in fields:
        return {name: message}, None
    return {}, message

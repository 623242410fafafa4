"""What the blueprint-writing steps build up: entity sketches, and errors that name the step to ask again."""

from __future__ import annotations

import keyword
from dataclasses import dataclass, field
from typing import Any

from envforge.errors import EnvforgeError


class DraftError(EnvforgeError):
    """A step's answer that cannot become a valid blueprint; `step` is the step to ask again."""

    def __init__(self, step: str, message: str) -> None:
        super().__init__(message)
        self.step = step
        self.message = message


@dataclass
class EntitySketch:
    """One entity as assembled so far: its key, references and the model's columns."""

    name: str
    description: str
    key: str
    prefix: str
    refs: list[tuple[str, str]] = field(default_factory=list)
    """(ref field, parent entity), in order: the parent it belongs to first."""
    fields: list[dict[str, Any]] = field(default_factory=list)
    """The model's columns as FieldSpec dicts (no keys, no references)."""
    is_person: bool = False

    def column(self, name: str) -> dict[str, Any] | None:
        return next((item for item in self.fields if item["name"] == name), None)


def alias_of(name: str) -> str:
    """A row alias for expressions: the entity name, unless the expression language reads it otherwise."""
    return f"the_{name}" if keyword.iskeyword(name) or name in ("args", "now", "today") else name


def check_name(step: str, what: str, name: str) -> None:
    """Names end up in expressions (`alias.field`), where a Python keyword does not parse."""
    if keyword.iskeyword(name):
        raise DraftError(step, f"the {what} name '{name}' is a reserved word in expressions; choose another name")

"""The templates of the site, and the filters they draw values with."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jinja2

TEMPLATES = Path(__file__).parent / "templates"
Site = dict[str, bytes]
"""A site: relative path -> the file's bytes."""


def _percent(value: float) -> str:
    return f"{value * 100:.0f}%"


def _parsed(text: object) -> object:
    """A tool result or arguments as a value, when they are JSON; the text as it is otherwise."""
    if not isinstance(text, str):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _is_table(value: object) -> bool:
    """A list of records: drawn as one table with a column per field."""
    return isinstance(value, list) and bool(value) and all(isinstance(item, dict) for item in value)


def _columns(rows: list[dict[str, Any]]) -> list[str]:
    return list(dict.fromkeys(key for row in rows for key in row))


def _scalar(value: object) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


@cache
def environment() -> jinja2.Environment:
    templates = jinja2.Environment(
        loader=jinja2.FileSystemLoader(TEMPLATES), autoescape=True, undefined=jinja2.StrictUndefined
    )
    templates.filters.update(percent=_percent, parsed=_parsed, columns=_columns, scalar=_scalar)
    templates.tests.update(table=_is_table, mapping=lambda value: isinstance(value, dict))
    return templates


def render(template: str, **context: Any) -> bytes:
    return environment().get_template(template).render(**context).encode()

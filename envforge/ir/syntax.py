"""The small types blueprint declarations are written in: names and expressions."""

from __future__ import annotations

import typing
from typing import Annotated, Any

from pydantic import Discriminator, Field, Tag
from pydantic.config import JsonDict

Identifier = Annotated[str, Field(pattern=r"^[a-z][a-z0-9_]{0,62}$")]
"""A lower_snake_case name: entities, fields, tools, aliases."""

EXPRESSION_DOCS = "An expression: names, functions, types and examples in docs/expressions.md."


def _point_to_docs(schema: JsonDict) -> None:
    # Appended, not set: a field's own docstring becomes its description and says what the value means.
    description = str(schema.get("description", ""))
    schema["description"] = f"{description} {EXPRESSION_DOCS}".strip()


Expression = Annotated[str, Field(min_length=1, max_length=500, json_schema_extra=_point_to_docs)]
"""A side-effect-free expression in a small Python-like language, documented in docs/expressions.md.

Names: a bound row alias (`order.status`), `args.<param>`, `now` (the environment clock as an
ISO datetime) and `today` (its date). Operators: arithmetic, comparisons, `and`/`or`/`not`,
`in (...)`, `is None`. Functions: round, min, max, abs, lower, upper, len, coalesce,
days_between(a, b), years_between(a, b), add_days(date, n).
"""

Scalar = str | int | float | bool


def tag_keys(union: Any) -> tuple[str, ...]:
    """The tags of a union of `Annotated[Model, Tag(key)]` members, in order: the keys that name each kind."""
    return tuple(meta.tag for member in typing.get_args(union) for meta in member.__metadata__ if isinstance(meta, Tag))


def key_discriminator(kinds: tuple[str, ...], what: str) -> Discriminator:
    """Picks a union member by which of `kinds` a mapping has as a key; the error names `what` (e.g. `effect`)."""

    def kind_of(value: Any) -> str | None:
        keys = value.keys() if isinstance(value, dict) else vars(value).keys()
        return next((kind for kind in kinds if kind in keys), None)

    return Discriminator(
        kind_of,
        custom_error_type=f"{what}_kind",
        custom_error_message=f"an {what} needs one of the keys {', '.join(kinds)}",
    )

"""Semantic checks of declared catalogue rows: every value is one its field can hold, and none is made by envforge.

A declared value is seeded as written, so it meets what a generated one meets: the field's type, enum values,
bounds, length and uniqueness. Keys, refs, copies and derived values are made by the state stage from other rows,
so a row that declared one would be overwritten; such a row is refused here instead.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from envforge.errors import did_you_mean
from envforge.ir.blueprint import EntitySpec, FieldSpec
from envforge.ir.check_context import CheckContext, listed
from envforge.ir.invariants import DerivedValue
from envforge.ir.locations import Path_

MAX_SHOWN = 40
"""Longest declared text quoted back in a message."""


def check_catalogues(context: CheckContext) -> None:
    """Raise a located error on the first declared catalogue row that envforge could not seed as written."""
    derived = {
        (invariant.entity, invariant.derive): invariant.id
        for invariant in context.blueprint.invariants
        if isinstance(invariant, DerivedValue)
    }
    for index, entity in enumerate(context.blueprint.entities):
        if entity.catalogue:
            _check_entity(context, entity, ("entities", index), derived)


def _check_entity(context: CheckContext, entity: EntitySpec, path: Path_, derived: dict[tuple[str, str], str]) -> None:
    count = len(entity.catalogue)
    if entity.name == context.blueprint.person:
        raise context.fail(
            (*path, "catalogue"),
            f"entity '{entity.name}' is the person entity, whose rows are the people tasks serve, not a catalogue; "
            "declare catalogue rows on an entity people pick from, or remove 'catalogue'",
        )
    if entity.rows != count:
        raise context.fail(
            (*path, "rows"),
            f"entity '{entity.name}' declares {count} catalogue rows but 'rows: {entity.rows}'; a catalogue is every "
            f"row of its entity at any row count, so remove 'rows' or set it to {count}",
        )
    fields = {field.name: field for field in entity.fields}
    first: dict[tuple[str, Any], int] = {}
    for at, row in enumerate(entity.catalogue):
        for name, value in row.items():
            where = (*path, "catalogue", at, name)
            context.field(entity, name, where)
            field = fields[name]
            made = _made_by_envforge(entity, field, derived)
            problem = made or _value_problem(field, value)
            if problem is not None:
                raise context.fail(where, problem)
            if field.unique and value is not None:
                earlier = first.setdefault((name, value), at)
                if earlier != at:
                    line = context.locations.line((*path, "catalogue", earlier, name))
                    on = f" on line {line}" if line is not None else ""
                    raise context.fail(
                        where,
                        f"catalogue row {at + 1} repeats {_shown(value)}, the '{name}' of row {earlier + 1}{on}, but "
                        f"'{entity.name}.{name}' is unique; give each row its own {name}",
                    )


def _made_by_envforge(entity: EntitySpec, field: FieldSpec, derived: dict[tuple[str, str], str]) -> str | None:
    """Why a catalogue row cannot declare the field, or None when it can."""
    if field.type == "id":
        return f"'{field.name}' is the key of '{entity.name}', which envforge generates; remove it from the row"
    if field.type == "ref":
        return (
            f"'{field.name}' holds another row's generated key, which a catalogue row cannot name; remove it and it "
            "is drawn as for any row"
        )
    if field.generator is not None and field.generator.copy_from is not None:
        return f"'{field.name}' is copied from '{field.generator.copy_from}'; remove it from the row"
    invariant = derived.get((entity.name, field.name))
    if invariant is not None:
        return f"'{field.name}' is derived by invariant '{invariant}'; remove it from the row"
    return None


def _value_problem(field: FieldSpec, value: Any) -> str | None:
    """What is wrong with `value` for the field, with the fix; None when the field can hold it."""
    if value is None:
        if field.nullable:
            return None
        return f"'{field.name}' is not nullable; give it a value, or leave it out to have one generated"
    problem = _type_problem(field, value)
    if problem is not None:
        return problem
    if isinstance(value, int | float) and not isinstance(value, bool):
        if field.minimum is not None and value < field.minimum:
            return f"{value} is below the minimum {field.minimum:g} of '{field.name}'; give a value in range"
        if field.maximum is not None and value > field.maximum:
            return f"{value} is above the maximum {field.maximum:g} of '{field.name}'; give a value in range"
    if isinstance(value, str) and field.max_length is not None and len(value) > field.max_length:
        return (
            f"{_shown(value)} has {len(value)} characters, more than the max_length {field.max_length} of "
            f"'{field.name}'; shorten it"
        )
    return None


def _type_problem(field: FieldSpec, value: Any) -> str | None:
    kind = field.type
    number = isinstance(value, int | float) and not isinstance(value, bool)
    if kind in ("string", "text") and not isinstance(value, str):
        return f"'{field.name}' is text, got {_shown(value)}; quote the value"
    if kind == "integer" and not (number and isinstance(value, int)):
        return f"'{field.name}' is a whole number, got {_shown(value)}; fix the value"
    if kind in ("number", "money") and not number:
        return f"'{field.name}' is a number, got {_shown(value)}; write it without quotes"
    if kind == "money" and round(value, 2) != value:
        return f"'{field.name}' is money with two decimal places, got {value}; round it to cents"
    if kind == "boolean" and not isinstance(value, bool):
        return f"'{field.name}' is true or false, got {_shown(value)}; fix the value"
    if kind == "enum" and value not in (field.values or []):
        values = field.values or []
        hint = did_you_mean(value, values) if isinstance(value, str) else ""
        return f"{_shown(value)} is not one of the values of '{field.name}' ({listed(values)}){hint or '; use one'}"
    if kind == "date" and not _is_date(value):
        return f"'{field.name}' is a date such as 2026-03-16, got {_shown(value)}; fix the value"
    if kind == "datetime" and not _is_datetime(value):
        return f"'{field.name}' is a date and time such as 2026-03-16T10:00:00, got {_shown(value)}; fix the value"
    return None


def _is_date(value: Any) -> bool:
    try:
        return isinstance(value, str) and len(value) == 10 and bool(date.fromisoformat(value))
    except ValueError:
        return False


def _is_datetime(value: Any) -> bool:
    # The seed's own form, to the second and without a zone, so declared and generated values compare as text.
    try:
        return isinstance(value, str) and len(value) == 19 and datetime.fromisoformat(value).isoformat() == value
    except ValueError:
        return False


def _shown(value: Any) -> str:
    if isinstance(value, str):
        return repr(value if len(value) <= MAX_SHOWN else f"{value[: MAX_SHOWN - 3]}...")
    return str(value).lower() if isinstance(value, bool) else repr(value)

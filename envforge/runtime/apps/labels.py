"""How a row reads to a person choosing it from a list: its name (or the rows it belongs to), when, what state it
is in, how much; its key last, in brackets, since a request may name a row by nothing else.

The same words fill the web app's list box, the phone app's cards, a confirmation's summary and a golden path's
select step, so a path picks a row by exactly what a person sees. Only names, dates, statuses, kinds, amounts and
short searchable strings are shown: never unique identifiers (emails, card numbers), free text or counters.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from envforge.ir.blueprint import EntitySpec, FieldSpec
from envforge.runtime.environment import Environment
from envforge.text import as_date, humanize, money

MAX_DETAILS = 4
NAME_WORDS = frozenset({"name", "title", "nickname"})
"""Words of a field name that make it a name (`first_name`, `title`; not `username`)."""
KIND_SUFFIXES = ("type", "kind", "brand", "category", "class", "tier")
"""Enum fields that say what sort of thing a row is: a `savings` account reads as `Savings account`."""
HIDDEN_SUFFIXES = ("_id", "_reference", "email", "phone")

Reference = tuple[str, bool]
"""How a child's label names a parent row, and whether that is by the parent's name."""


def capitalized(text: str) -> str:
    return text[:1].upper() + text[1:]


def uncapitalized(text: str) -> str:
    return text[:1].lower() + text[1:]


def day_text(value: Any) -> str:
    """`2026-06-05` -> `5 Jun 2026`; a value that is no date is shown as it is."""
    parsed = as_date(value)
    return f"{parsed.day} {parsed:%b %Y}" if parsed is not None else str(value)


def _shown(value: Any) -> bool:
    return value is not None and value != ""


@dataclass(frozen=True)
class RowLabel:
    """One row in words: `Brett Bishop — 11 May 2026 — 11:30 — Open (SLT-141954)`."""

    key: str
    title: str
    details: tuple[str, ...] = ()
    order: tuple[str, ...] = ()
    """What sorts rows the way they read: the title, then the raw values behind the details (ISO dates sort)."""

    @property
    def text(self) -> str:
        return " — ".join((self.title, *self.details)) + f" ({self.key})"

    def matches(self, query: str) -> bool:
        """Every word of `query` appears in the text, in any case."""
        text = self.text.lower()
        return all(word in text for word in query.lower().split())


@dataclass(frozen=True)
class _Fields:
    """The fields of one entity a label may use, in the blueprint's order."""

    names: tuple[str, ...]
    codes: tuple[str, ...]
    """Short strings people search by (a flight number, a start time)."""
    strings: tuple[str, ...]
    dates: tuple[FieldSpec, ...]
    enums: tuple[FieldSpec, ...]
    money: tuple[str, ...]
    parents: tuple[tuple[str, str], ...]
    """(foreign key, parent entity) for parents other than the person."""


def _fields(env: Environment, spec: EntitySpec) -> _Fields:
    strings = [f for f in spec.fields if f.type == "string" and not f.unique and not f.name.endswith(HIDDEN_SUFFIXES)]
    plain = [f for f in strings if not NAME_WORDS & set(f.name.split("_"))]
    return _Fields(
        names=tuple(f.name for f in strings if NAME_WORDS & set(f.name.split("_"))),
        codes=tuple(f.name for f in plain if f.searchable),
        strings=tuple(f.name for f in plain),
        dates=tuple(f for f in spec.fields if f.type in ("date", "datetime")),
        enums=tuple(f for f in spec.fields if f.type == "enum"),
        money=tuple(f.name for f in spec.fields if f.type == "money"),
        parents=tuple(
            (relation.field, relation.parent)
            for relation in env.blueprint.relations
            if relation.child == spec.name and relation.parent != env.blueprint.person
        ),
    )


def _date(field: FieldSpec, value: Any) -> tuple[str, str]:
    """(`Placed on 14 Mar 2026`, the raw value); a field named just `date` shows the day alone."""
    prefix = "" if field.name == "date" else f"{capitalized(humanize(field.name))} "
    return prefix + day_text(value), str(value)


def _when(field: FieldSpec, value: Any) -> str:
    """A date as it follows a row's name: `on 26 Apr 2026` (a `date` or `..._date` field), `placed on 14 Mar 2026`."""
    if field.name == "date" or field.name.endswith("_date"):
        return f"on {day_text(value)}"
    return uncapitalized(_date(field, value)[0])


class RowLabeler:
    """Labels rows of one session's state; a parent's words are read once per labeler."""

    def __init__(self, env: Environment, connection: sqlite3.Connection) -> None:
        self.env = env
        self.connection = connection
        self.specs = {spec.name: spec for spec in env.blueprint.entities}
        self._fields: dict[str, _Fields] = {}
        self._references: dict[tuple[str, Any], Reference | None] = {}

    def fields(self, entity: str) -> _Fields:
        found = self._fields.get(entity)
        if found is None:
            found = self._fields[entity] = _fields(self.env, self.specs[entity])
        return found

    def names(self, entity: str, row: dict[str, Any]) -> str:
        return " ".join(str(row[name]) for name in self.fields(entity).names if _shown(row.get(name)))

    def _shown_values(self, names: tuple[str, ...], row: dict[str, Any]) -> list[str]:
        return [str(row[name]) for name in names if _shown(row.get(name))]

    def reference(self, entity: str, key: Any) -> Reference | None:
        """How a child's label names this row: `Brett Bishop`, `Flight NW0518, departure date 26 Apr 2026`,
        `Order placed on 14 Mar 2026`; a row with nothing of its own to say (a fare) by its parent (its flight)."""
        cached = (entity, key)
        if cached not in self._references:
            self._references[cached] = None  # a cycle of parents ends here
            runtime = self.env.entities[entity]
            found = self.connection.execute(runtime.statements.select_by_key, {runtime.key: key}).fetchone()
            if found is not None:
                self._references[cached] = self._own_reference(entity, dict(found))
        return self._references[cached]

    def _own_reference(self, entity: str, row: dict[str, Any]) -> Reference | None:
        names = self.names(entity, row)
        if names:
            return names, True
        fields = self.fields(entity)
        codes = self._shown_values(fields.codes, row)
        when = next((_when(f, row[f.name]) for f in fields.dates if _shown(row.get(f.name))), None)
        words = [capitalized(humanize(entity)), *codes[:1], *([when] if when else [])]
        if len(words) > 1:
            return " ".join(words), False
        parents = self._parents(entity, row)
        return parents[0] if parents else None

    def _parents(self, entity: str, row: dict[str, Any]) -> list[Reference]:
        """The references of a row's parents; those by a name first, since a name tells rows apart best."""
        found = [self.reference(parent, row[name]) for name, parent in self.fields(entity).parents if row.get(name)]
        return sorted((item for item in found if item), key=lambda item: not item[1])

    def label(self, entity: str, row: dict[str, Any]) -> RowLabel:
        key = str(row[self.env.entities[entity].key])
        fields = self.fields(entity)
        noun = humanize(entity)
        names = self.names(entity, row)
        if entity == self.env.blueprint.person:
            return RowLabel(key, names or capitalized(noun), (), (names.lower(), key))
        parents = [text for text, _ in self._parents(entity, row)]
        kinds = [f for f in fields.enums if f.name.endswith(KIND_SUFFIXES) and _shown(row.get(f.name))]
        dates = [_date(f, row[f.name]) for f in fields.dates if _shown(row.get(f.name))]
        details: list[tuple[str, str]] = []
        in_title: FieldSpec | None = None
        codes = self._shown_values(fields.codes, row)
        if names:
            title, codes = names, []
        elif parents:
            title = parents[0]
            details += [(text, text) for text in parents[1:]]
        elif kinds:
            in_title = kinds[0]
            title = capitalized(f"{humanize(str(row[in_title.name]))} {noun}")
        elif dates:
            title, codes = f"{capitalized(noun)} {uncapitalized(dates[0][0])}", []
            dates = []
        else:
            strings = self._shown_values(fields.strings, row)
            title, codes = (", ".join(strings[:3]) or capitalized(noun)), []
        details += dates[:1]
        details += [(code, code) for code in codes[:1]]
        enums = [f for f in fields.enums if f is not in_title and _shown(row.get(f.name))]
        details += [(capitalized(humanize(str(row[f.name]))), str(row[f.name])) for f in enums[:2]]
        amounts = [name for name in fields.money if _shown(row.get(name))]
        details += [(f"{capitalized(humanize(name))} {money(row[name])}", "") for name in amounts[:1]]
        shown = details[:MAX_DETAILS]
        return RowLabel(key, title, tuple(text for text, _ in shown), (title.lower(), *(raw for _, raw in shown), key))

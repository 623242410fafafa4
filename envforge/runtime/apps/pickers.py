"""The rows a form's record field offers to pick: the acting person's own, or any row of a shared catalog.

A field that takes a row's key (a slot to book, an account to pay from) lists the rows the person may pick in
words (`labels.py`), never a box to type a key into; the value submitted is still the key, so the tool call, its
checks and the verifier are those of an MCP call. Lists are bounded: past `PICKER_LIMIT` rows a search narrows
them. An argument that may name another person's row (`any_owner`: a transfer's receiving account) lists the
person's own rows, and finds another's only by its exact key, labelled without any of its details.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from envforge.ir.apps import ActionForm, FormField
from envforge.runtime.actions import compile_actions
from envforge.runtime.apps.labels import RowLabel, RowLabeler, capitalized
from envforge.runtime.environment import Environment
from envforge.runtime.ownership import compile_owner_queries
from envforge.runtime.session import Session
from envforge.text import humanize

PICKER_LIMIT = 50
"""Rows a picker lists at once; more are reached by its search."""
SCAN_LIMIT = 5000
"""Rows of one entity a picker reads to sort and search; past this a row is found by its exact key only."""
QUERY_LIMIT = 100
"""Characters of a search a picker reads: words enough to find a row, never a megabyte to match every row against."""
SEARCH_PREFIX = "pick-"
"""Query names of the pickers' searches: `pick-slot_id`. A hyphen keeps them apart from every parameter name."""


@dataclass(frozen=True)
class Picker:
    """What one record field offers: its choices in words, and how the list was narrowed."""

    field: str
    noun: str
    """What one row is, in words: `slot`."""
    plural: str
    choices: tuple[RowLabel, ...]
    matching: int
    """Rows the search (or no search) matches, of which `choices` are the first `PICKER_LIMIT`."""
    key_label: str
    """What the app calls a row's key: `account id`."""
    person: str
    """What the app calls a person: `customer`."""
    query: str = ""
    others_by_key: bool = False
    """Another person's row may be chosen, found by searching its exact key."""

    @property
    def searchable(self) -> bool:
        return self.matching > len(self.choices) or bool(self.query) or self.others_by_key

    def choice(self, key: str) -> RowLabel | None:
        return next((choice for choice in self.choices if choice.key == key), None)

    def label(self, key: str) -> str | None:
        found = self.choice(key)
        return found.text if found is not None else None


class PickerSource:
    """Pickers for the forms of one session: whose rows, in words, searched and bounded. The session's connection
    is taken per listing, in the session's turn: a store's sessions share one connection, which holds whichever
    session's state is live."""

    def __init__(self, env: Environment, session: Session) -> None:
        self.env = env
        self.session = session

    def pickers(self, form: ActionForm, values: Mapping[str, str], queries: Mapping[str, str]) -> dict[str, Picker]:
        """A picker per record field of `form`; `values` keep their row listed whatever the search."""
        with self.session.turn() as connection:
            labeler = RowLabeler(self.env, connection)
            return {
                field.name: self._picker(
                    labeler, form.tool, field, values.get(field.name, ""), queries.get(field.name, "")
                )
                for field in form.fields
                if field.input == "record" and field.ref is not None and field.ref in self.env.entities
            }

    def picker(self, tool: str, field: FormField, value: str, query: str) -> Picker:
        """The picker of one record field of `tool`'s form."""
        with self.session.turn() as connection:
            return self._picker(RowLabeler(self.env, connection), tool, field, value, query)

    def _picker(self, labeler: RowLabeler, tool: str, field: FormField, value: str, query: str) -> Picker:
        entity = str(field.ref)
        rows, mine_only = self._rows(labeler.connection, entity)
        labels = sorted((labeler.label(entity, row) for row in rows), key=lambda label: label.order)
        query = query.strip()[:QUERY_LIMIT]
        matching = [label for label in labels if label.matches(query)] if query else labels
        action = compile_actions(self.env).get(tool)
        owned = {name for name, _ in action.owned} if action is not None else set()
        others_by_key = mine_only and field.name not in owned
        found = self._by_key(labeler, entity, query, labels, (mine_only, others_by_key)) if query else None
        if found is not None and found not in matching:
            matching = [found, *matching]
        shown = matching[:PICKER_LIMIT]
        # The row chosen so far stays listed whatever the search shows, so a re-shown form keeps it.
        kept = self._by_key(labeler, entity, value, labels, (mine_only, others_by_key)) if value else None
        if kept is not None and kept not in shown:
            shown = [kept, *shown]
        spec = next(item for item in self.env.blueprint.entities if item.name == entity)
        return Picker(
            field=field.name,
            noun=humanize(entity),
            plural=humanize(spec.plural or f"{entity}s"),
            choices=tuple(shown),
            matching=len(matching),
            key_label=humanize(self.env.entities[entity].key),
            person=humanize(self.env.blueprint.person),
            query=query,
            others_by_key=others_by_key,
        )

    def _rows(self, connection: sqlite3.Connection, entity: str) -> tuple[list[dict[str, Any]], bool]:
        """The rows the person may pick, and whether they are only the person's own (an entity people own, in a
        session that acts for someone) rather than a whole catalog."""
        owners = compile_owner_queries(self.env)
        person = self.session.person
        if entity in owners and person is not None:
            return owners[entity].owned(connection, person, SCAN_LIMIT), True
        statement = f"{self.env.entities[entity].statements.select_all} LIMIT :limit"
        return [dict(row) for row in connection.execute(statement, {"limit": SCAN_LIMIT})], False

    def _by_key(
        self, labeler: RowLabeler, entity: str, key: str, labels: list[RowLabel], scope: tuple[bool, bool]
    ) -> RowLabel | None:
        """The row with exactly this key: among `labels`, else read; another person's only when `scope` (the
        person's own rows only, others' rows by key) allows, labelled without its details."""
        mine_only, others = scope
        listed = next((label for label in labels if label.key == key), None)
        if listed is not None or (mine_only and not others):
            return listed
        runtime = self.env.entities[entity]
        row = labeler.connection.execute(runtime.statements.select_by_key, {runtime.key: key}).fetchone()
        if row is None:
            return None
        if not mine_only:
            return labeler.label(entity, dict(row))
        owner = capitalized(f"another {humanize(self.env.blueprint.person)}'s {humanize(entity)}")
        return RowLabel(key, owner, (), (owner.lower(), key))


def picker_queries(form: ActionForm, query: Mapping[str, Any]) -> dict[str, str]:
    """The pickers' search texts among a request's query or form values: record field -> text."""
    return {
        field.name: str(query[SEARCH_PREFIX + field.name])
        for field in form.fields
        if field.input == "record" and SEARCH_PREFIX + field.name in query
    }

"""A domain's package loaded for the call red team (`tests/runtime/test_call_red_team.py`), and a run played on a
real session with every table dumped after each call.

Whose a row is comes from the database itself: the foreign keys of its schema, followed up to the person table
(where several lead there, the blueprint's `owner` names the relation that counts). The runtime's own ownership
code is not asked.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from envforge.ir.tasks import RunHistory, TaskSpec, ToolCall
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_tasks

Row = dict[str, Any]
Tables = dict[str, dict[Any, tuple[Any, ...]]]
"""Table -> key -> the row's values, in the table's column order."""
Link = tuple[str, str]
"""(foreign key column, the table it points at)."""


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


@dataclass(repr=False)
class World:
    """One domain's package, loaded once: its environment and tasks, a session, the schema's foreign keys."""

    env: Environment
    tasks: list[TaskSpec]
    session: Session
    columns: dict[str, list[str]]
    keys: dict[str, str]
    chains: dict[str, list[Link]]
    """Owned table -> the foreign keys from it up to the person table (empty for the person table itself)."""
    template: Tables
    rows: dict[str, list[Row]]
    """Each table's rows at the start, in key order: what calls are drawn from."""
    pools: dict[tuple[str, str, str], list[Row]] = field(default_factory=dict)

    def __repr__(self) -> str:
        return f"World({self.env.blueprint.domain})"

    @property
    def person_table(self) -> str:
        return self.env.blueprint.person

    def owner(self, tables: Tables, entity: str, key: Any) -> str | None:
        """The person key a row belongs to in `tables`; None for a row that is missing, whose chain breaks, or of a
        table no chain leads from (a catalog)."""
        chain = self.chains.get(entity)
        if chain is None:
            return None
        for column, parent in chain:
            row = tables[entity].get(key)
            if row is None:
                return None
            key, entity = row[self.columns[entity].index(column)], parent
        return None if key is None or key not in tables[entity] else str(key)

    def pool(self, task: TaskSpec, entity: str, whose: str) -> list[Row]:
        """The entity's starting rows that are the user's (`own`), someone else's (`other`), or all of them."""
        if whose == "any" or entity not in self.chains:
            return self.rows[entity]
        found = self.pools.get((entity, task.scenario.person, whose))
        if found is None:
            person, key = task.scenario.person, self.keys[entity]
            found = [
                row
                for row in self.rows[entity]
                if (self.owner(self.template, entity, row[key]) == person) == (whose == "own")
            ]
            self.pools[(entity, person, whose)] = found
        return found

    def dump(self) -> Tables:
        """Every table of the session's database, as it is now."""
        connection = self.session.connection
        return {
            table: {row[self.keys[table]]: tuple(row) for row in connection.execute(f"SELECT * FROM {_quote(table)}")}
            for table in self.columns
        }


def _links(connection: sqlite3.Connection, table: str) -> list[Link]:
    return [(row[3], row[2]) for row in connection.execute(f"PRAGMA foreign_key_list({_quote(table)})")]


def _chains(env: Environment, connection: sqlite3.Connection, tables: list[str]) -> dict[str, list[Link]]:
    person = env.blueprint.person
    owners = {entity.name: entity.owner for entity in env.blueprint.entities if entity.owner is not None}
    fields = {relation.name: relation.field for relation in env.blueprint.relations}
    chains: dict[str, list[Link]] = {person: []}

    def chain(table: str, seen: frozenset[str]) -> list[Link] | None:
        if table in chains:
            return chains[table]
        found = [
            [(column, parent), *rest]
            for column, parent in _links(connection, table)
            if parent not in seen and (rest := chain(parent, seen | {parent})) is not None
        ]
        if table in owners:
            found = [links for links in found if links[0][0] == fields[owners[table]]]
        if len(found) > 1:
            raise AssertionError(f"{table} leads to {person} through {found}: the blueprint must name its owner")
        return found[0] if found else None

    for table in tables:
        links = chain(table, frozenset({table}))
        if links is not None:
            chains[table] = links
    return chains


@cache
def load_world(package: Path) -> World:
    env = load_environment(open_package(package))
    session = Session(env)
    connection = session.connection
    tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    tables = sorted(table for table in tables if table in env.entities)
    columns = {table: [row[1] for row in connection.execute(f"PRAGMA table_info({_quote(table)})")] for table in tables}
    keys = {
        table: next(row[1] for row in connection.execute(f"PRAGMA table_info({_quote(table)})") if row[5] == 1)
        for table in tables
    }
    rows = {
        table: [dict(row) for row in connection.execute(f"SELECT * FROM {_quote(table)} ORDER BY 1")]
        for table in tables
    }
    world = World(env, [], session, columns, keys, _chains(env, connection, tables), {}, rows)
    world.template = world.dump()
    world.tasks = sorted(load_tasks(open_package(package)).values(), key=lambda task: task.id)
    return world


@dataclass(frozen=True)
class Step:
    """One call of a run: what it returned and the database before and after it."""

    call: ToolCall
    ok: bool
    result: dict[str, Any]
    before: Tables
    after: Tables


def play(world: World, task: TaskSpec, calls: list[ToolCall]) -> tuple[list[Step], RunHistory]:
    """Play the calls on the world's session, reset to the template, acting for the task's person; the steps and the
    history the session logged."""
    session = world.session
    session.reset()
    session.act_for(task.scenario.person)
    state, steps = world.template, []
    for call in calls:
        ok, result = session.call_tool(call.name, dict(call.arguments))
        after = world.dump()
        steps.append(Step(call, ok, result, state, after))
        state = after
    return steps, session.history()

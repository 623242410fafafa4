"""How the user is found: by a full credential their persona knows (the blueprint's `authentication`), never by a
name alone or by what they do not know."""

from __future__ import annotations

import random
from typing import Any

from envforge.ir.blueprint import PersonaSpec
from envforge.ir.naming import list_tool_name
from envforge.ir.tasks import ToolCall
from envforge.stages.tasks.drafts import Identity
from envforge.stages.tasks.world import World

NAMES = ("first_name", "last_name")
LIST_LIMIT = 10


def identify(world: World, person: str, persona: PersonaSpec, rng: random.Random) -> Identity | None:
    """The lookup that authenticates `person` and what they say of themselves; None when their persona knows no
    credential a lookup takes. Sometimes the user gives only their name up front and the credential when asked."""
    row = world.rows[world.person.name][person]
    knows = [name for name in persona.knows if row.get(name) not in (None, "")]
    held = [credential for credential in world.session.env.blueprint.credentials() if set(credential) <= set(knows)]
    lookups = [(credential, call) for credential in held if (call := _lookup(world, person, credential)) is not None]
    if not lookups:
        return None
    credential, call = rng.choice(lookups)
    stated: dict[str, Any] = {name: row[name] for name in NAMES if name in knows}
    if not stated or rng.random() < 0.5:
        stated |= {name: row[name] for name in credential}
    hidden = {name: row[name] for name in knows if name not in stated}
    credentials = [{name: str(row[name]) for name in held_credential} for held_credential in held]
    return Identity(call, stated, hidden, credentials)


def _lookup(world: World, person: str, credential: list[str]) -> ToolCall | None:
    """A find by the credential's one field, or a list filtered on all its fields that returns only `person`."""
    spec = world.person
    row = world.rows[spec.name][person]
    if len(credential) == 1:
        for tool in world.graph.tools:
            if tool.operation == "find" and tool.entity == spec.name and tool.filters == credential:
                return ToolCall(name=tool.name, arguments={credential[0]: row[credential[0]]})
    lister = world.tools.get(list_tool_name(spec.plural))
    if lister is None or not set(credential) <= set(lister.filters):
        return None
    arguments = {name: row[name] for name in credential}
    alone = world.singled_out.get((person, tuple(credential)))
    if alone is None:
        alone = world.singled_out[(person, tuple(credential))] = _matches(world.rows[spec.name], arguments) == [person]
    if not alone:
        return None
    return ToolCall(name=lister.name, arguments={**arguments, "limit": LIST_LIMIT})


def _matches(rows: dict[str, dict[str, Any]], arguments: dict[str, Any]) -> list[str]:
    """The keys of the rows listing by `arguments` finds, in order. Text filters match by substring, as the list tool
    does: the credential must still single the person out. One field at a time, so only the rows the first field
    matches (a handful of 100,000) are tried on the others."""
    matches = list(rows)
    for name, value in arguments.items():
        if isinstance(value, str):
            folded = value.casefold()
            matches = [
                key
                for key in matches
                if (folded in stored.casefold() if isinstance(stored := rows[key][name], str) else value == stored)
            ]
        else:
            matches = [key for key in matches if value == rows[key][name]]
    return matches

"""How the user is found: by what their persona knows, never by what it does not."""

from __future__ import annotations

import random
from typing import Any

from envforge.ir.blueprint import PersonaSpec
from envforge.ir.naming import list_tool_name
from envforge.ir.tasks import ToolCall
from envforge.stages.tasks.drafts import Identity
from envforge.stages.tasks.world import World


def identify(world: World, person: str, persona: PersonaSpec, rng: random.Random) -> Identity | None:
    """The lookup that finds `person` and what they say of themselves. Sometimes the user gives only their name
    up front and the finding detail when asked."""
    spec = world.person
    row = world.rows[spec.name][person]
    knows = [name for name in persona.knows if row.get(name) not in (None, "")]
    names: dict[str, Any] = {name: row[name] for name in ("first_name", "last_name") if name in knows}
    finders = [
        tool
        for tool in world.graph.tools
        if tool.operation == "find" and tool.entity == spec.name and tool.filters[0] in knows
    ]
    if finders:
        name = rng.choice(finders).filters[0]
        call = ToolCall(name=next(t.name for t in finders if t.filters[0] == name), arguments={name: row[name]})
        stated = dict(names)
        if not names or rng.random() < 0.5:
            stated[name] = row[name]
        hidden = {n: row[n] for n in knows if n not in stated}
        return Identity(call, stated, hidden)
    lister = world.tools.get(list_tool_name(spec.plural))
    usable = [name for name in knows if lister is not None and name in lister.filters]
    if lister is None or not usable:
        return None
    arguments = {name: row[name] for name in usable[:3]}
    matches = [key for key, other in world.rows[spec.name].items() if all(other[n] == v for n, v in arguments.items())]
    if matches != [person]:
        return None
    stated = {name: row[name] for name in usable[:3]}
    return Identity(
        ToolCall(name=lister.name, arguments={**arguments, "limit": 10}),
        stated,
        {n: row[n] for n in knows if n not in stated},
    )

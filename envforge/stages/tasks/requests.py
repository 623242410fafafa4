"""One write request as the user makes it: the rows it names the way people name them, how a careful agent
finds those rows, and the details the user gives up front or only when asked."""

from __future__ import annotations

import random
from typing import Any

from envforge.ir.blueprint import ActionSpec, UpdateEffect
from envforge.ir.expressions import compile_expression
from envforge.ir.naming import get_tool_name, list_tool_name
from envforge.ir.tasks import ToolCall
from envforge.ir.toolspec import ToolSpec
from envforge.stages.tasks.drafts import Part
from envforge.stages.tasks.phrasing import Detail
from envforge.stages.tasks.world import Description, World

ASK_SHARE = 0.7
"""Share of requests whose details (a reason, the new address) the user gives only when asked."""
VAGUE_SHARE = 0.5
"""Share of requests about one of several rows where the user says which only when asked."""


def request_of(
    world: World,
    action: ActionSpec,
    tool: ToolSpec,
    arguments: dict[str, Any],
    identify: ToolCall,
    rng: random.Random,
) -> Part | None:
    """The request for `action` with `arguments`, by a user whom the call `identify` finds; None where a row it
    names could be told apart from the user's others only by its key, though people know such rows by a name."""
    lookups: list[ToolCall] = []
    target: Description | None = None
    owned = False
    others: list[tuple[str, Description]] = []
    target_param = ""
    refs = sorted(tool.param_refs.items(), key=lambda item: item[1] != action.entity)
    for name, entity in refs:
        key = arguments[name]
        if entity == world.person.name:
            continue
        if entity in world.linked:
            # The user's own record in another domain of a fused world: found, never named ("my customer").
            chain = world.lookup_chain(entity, key, identify)[1:]
            lookups.extend(call for call in chain if call not in lookups)
            continue
        if world.is_owned(entity):
            described = world.describe_owned(entity, key)
            chain = world.lookup_chain(entity, key, identify, described)[1:]
        else:
            lister = world.tools.get(list_tool_name(world.entity(entity).plural))
            searchable = list(lister.filters) if lister is not None else []
            described = world.describe_catalog(entity, key, searchable)
            chain = _catalog_lookup(world, entity, key, described)
        if described.keyed(world.displayed):
            return None
        lookups.extend(call for call in chain if call not in lookups)
        if target is None:
            target, owned, target_param = described, world.is_owned(entity), name
        else:
            others.append((name, described))
    lookups.extend(call for call in detail_reads(world, action, arguments, identify) if call not in lookups)
    # In the blueprint's order, which tells a street before its city.
    details = [
        Detail(param, arguments[param.name], _replaces(action, param.name))
        for param in action.params
        if param.name in arguments and param.name not in tool.param_refs
    ]
    asked = bool(details) and rng.random() < ASK_SHARE
    vague = (
        target is not None
        and owned
        and target.parent is None
        and not target.uses_key
        and bool(target.fields)
        and rng.random() < VAGUE_SHARE
    )
    return Part(action, arguments, target, owned, others, details, asked, vague, lookups, target_param)


def detail_reads(world: World, action: ActionSpec, arguments: dict[str, Any], identify: ToolCall) -> list[ToolCall]:
    """The get calls a careful agent makes before `action`: one for each row an argument names whose details (a
    fare's seats left, a loan's renewals) the action's preconditions or policies read, since lists leave details
    out. A person found by a one-row lookup (`find_member_by_email`) was shown whole already."""
    rules = [condition.require for condition in action.preconditions]
    rules += [
        policy.require for policy in world.session.env.blueprint.policies if action.name in (policy.actions or [])
    ]
    read = {(ref.root, ref.attr) for rule in rules for ref in compile_expression(rule).references}
    whole = world.tools[identify.name].entity if world.tools[identify.name].operation != "list" else None
    calls = []
    for binding in action.bind:
        param = (binding.key or "").removeprefix("args.")
        if not binding.key or param == binding.key or param not in arguments or binding.entity == whole:
            continue
        spec = world.entity(binding.entity)
        if any((binding.name, name) in read for name in {f.name for f in spec.fields} - world.listed(spec.name)):
            calls.append(ToolCall(name=get_tool_name(spec.name), arguments={spec.key: arguments[param]}))
    return calls


def _catalog_lookup(world: World, entity: str, key: str, description: Description) -> list[ToolCall]:
    """How a careful agent finds a catalog row the user names: the labelled parents by their label, then
    the rows filtered by what the user said and by those parents (the fares of flight UA 120)."""
    if description.uses_key:
        return []
    spec = world.entity(entity)
    tool = world.tools.get(list_tool_name(spec.plural))
    if tool is None:
        return []
    row = world.rows[entity][key]
    filters: dict[str, Any] = {}
    for name, value in description.fields:
        field = name.split("->", 1)[0]
        if field in tool.filters:
            filters[field] = row[field] if "->" in name else value
    calls = [ToolCall(name=tool.name, arguments={**filters, "limit": 100})] if filters else []
    return [*world.label_lookups(description), *calls]


def _replaces(action: ActionSpec, name: str) -> bool:
    return any(
        isinstance(effect, UpdateEffect) and any(f"args.{name}" in source for source in effect.set.values())
        for effect in action.effects
    )

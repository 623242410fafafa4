"""Single writes: one allowed request by one user, on rows they own or name from the catalog. Attempting them
also meets the requests a policy forbids (kept for refusals) or answers with an offer (kept as offers)."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

from envforge.ir.blueprint import ActionSpec
from envforge.ir.tasks import ToolCall
from envforge.ir.toolspec import ToolSpec
from envforge.runtime.changes import fold_history
from envforge.stages.tasks.arguments import plain_values
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft
from envforge.stages.tasks.identity import identify
from envforge.stages.tasks.kinds.allowance import keep_allowance, turning_of
from envforge.stages.tasks.kinds.kind import Drafted, DraftKind
from envforge.stages.tasks.kinds.offer import keep_offer
from envforge.stages.tasks.kinds.refusal import forbid
from envforge.stages.tasks.requests import request_of

PERSONS_PER_ACTION = 24
CATALOG_CANDIDATES = 8
OWNED_CANDIDATES = 4
ATTEMPTS_PER_PERSON = 12
SCANNED = 96
"""Candidate argument sets per user checked against the runtime's refusals, in their seeded order, for attempts."""
DRAFTS_PER_ACTION = 6
"""Drafts of an action past which its later users are not tried, unless the search for policy tasks goes on, or
the count asked for needs more: the mix deals drafts round-robin over actions and takes a few of each."""
PATIENCE = 4
"""Users in a row whose attempts at a governed action met no new kind of policy task, after which the search for
one stops: the action's later users are tried as an ungoverned action's are, until one attempt succeeds."""


class SingleWrites(DraftKind):
    share = "write"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        """Every admitted action, tried for the first users until one attempt each succeeds, and for as many users
        as it takes to give the mix enough drafts of each action and to meet the kinds of policy task it has."""
        admitted = [action for action in context.blueprint.actions if action.name in context.admitted]
        enough = max(DRAFTS_PER_ACTION, -(-2 * wanted // max(len(admitted), 1)))
        drafts: list[Draft] = []
        for action in context.blueprint.actions:
            if action.name in context.admitted:
                drafts.extend(_single_writes(context, action, context.persons[:PERSONS_PER_ACTION], enough))
            else:
                context.failures[action.name]["the tool tests did not admit it"] += 1
        return drafts


def _single_writes(context: SynthesisContext, action: ActionSpec, persons: list[str], enough: int) -> list[Draft]:
    world = context.world
    tool = world.tools[action.name]
    owned_params = [p for p, entity in tool.param_refs.items() if world.is_owned(entity)]
    if not owned_params:
        context.failures[action.name]["no parameter names a row the user owns"] += 1
        return []
    governed = action.name in context.governed
    quiet = 0
    drafts: list[Draft] = []
    for person in persons:
        searching = governed and quiet < PATIENCE
        if len(drafts) >= enough and not searching:
            break
        rng = context.rng(action.name, person)
        options: list[list[Any]] = []
        names = list(tool.parameters["properties"])
        for name in names:
            entity = tool.param_refs.get(name)
            if entity is None:
                options.append(plain_values(context.blueprint, world, context.faker, tool, name, rng))
            elif world.is_owned(entity):
                keys = sorted(world.owned.get((person, entity), []))
                rng.shuffle(keys)
                options.append(keys[:OWNED_CANDIDATES])
            else:
                keys = world.keys_in_order(entity)
                options.append(rng.sample(keys, min(CATALOG_CANDIDATES, len(keys))))
        if any(not option for option in options):
            context.failures[action.name][
                f"the user has no {names[[bool(o) for o in options].index(False)]} to name"
            ] += 1
            continue
        combos = list(itertools.islice(itertools.product(*options), 500))
        rng.shuffle(combos)
        found = False
        met = len(context.met)
        # Past the first success, keep trying for a policy task of a kind not met yet: a request a policy forbids,
        # changes or allows, on conditions no such request turned on before.
        attempts = ATTEMPTS_PER_PERSON * (2 if searching else 1)
        for arguments in itertools.islice(_admissible(context, action, person, names, combos), attempts):
            draft = _write_draft(context, action, tool, person, arguments, rng)
            if draft is not None and not found:
                drafts.append(draft)
                found = True
            if found and (not searching or len(context.met) > met):
                break
        quiet = 0 if len(context.met) > met else quiet + 1
    return drafts


def _admissible(
    context: SynthesisContext, action: ActionSpec, person: str, names: list[str], combos: list[tuple[Any, ...]]
) -> Iterator[dict[str, Any]]:
    """The candidate arguments, in their seeded order, less those the runtime refuses outright on the template (a
    precondition on the rows they name, such as a slot already taken) and that no kind of task keeps: attempts go
    to requests that can succeed, or that a policy forbids or answers with an offer. Each refused one is counted
    among the action's failures, as an attempt at it would be."""
    for combo in combos[:SCANNED]:
        arguments = dict(zip(names, combo, strict=True))
        refused = context.refused_outright(ToolCall(name=action.name, arguments=arguments), person)
        if refused is None:
            yield arguments
        else:
            context.failures[action.name][_reason(refused)] += 1


def _write_draft(
    context: SynthesisContext,
    action: ActionSpec,
    tool: ToolSpec,
    person: str,
    arguments: dict[str, Any],
    rng: random.Random,
) -> Draft | None:
    """The request as a draft if it is allowed and changes something; a forbidden one or one answered with an
    offer is kept for its own kind instead."""
    persona = context.persona_of(person)
    identity = identify(context.world, person, persona, rng)
    if identity is None:
        context.failures[action.name]["the user's persona knows nothing that finds them"] += 1
        return None
    part = request_of(context.world, action, tool, arguments, identity.call, rng)
    if part is None:
        context.failures[action.name]["only a key tells a row it names apart from the user's others"] += 1
        return None
    write = ToolCall(name=action.name, arguments=arguments)
    lookups = [identity.call, *part.lookups]
    ok, results = context.look_up(lookups, person)
    if not ok:
        context.failures[action.name][_reason(results[-1])] += 1
        return None
    session = context.session
    offer = session.offer(action.name, arguments)
    # Most attempts fail a precondition on the candidate row: one that nothing keeps for another kind of task (an
    # offer, a refusal of a rule) is told by the runtime's own checks at the cost of one binding, not played.
    refused = context.refusal(write) if offer is None else None
    if refused is not None and refused["error"].get("policy") not in context.rules:
        context.failures[action.name][_reason(refused)] += 1
        return None
    breached = session.breaches(action.name, arguments)
    verdicts = session.verdicts(action.name, arguments)
    # The checks above write nothing: the lookups' state is the write's, as though replayed from the template.
    ok, results = context.play_on([write])
    touched = {(tool.param_refs[name], str(arguments[name])) for name in tool.param_refs}
    draft = Draft("write", person, persona, identity, [*lookups, write], 1, [part], touched=touched, family=action.name)
    if offer is not None and keep_offer(context, draft, offer, turning_of(verdicts, [offer[0]])):
        return None
    if not ok:
        refusal = results[-1].get("error", {})
        if refusal.get("code") == "policy_violation" and refusal.get("policy") in context.rules:
            policies = [str(refusal["policy"])]
            forbid(context, draft, policies, turning_of(verdicts, policies))
        context.failures[action.name][_reason(results[-1])] += 1
        return None
    if breached:
        forbid(context, draft, breached, turning_of(verdicts, breached))
        return None
    history = session.history()
    if not fold_history(history.writes, history.keys):
        context.failures[action.name]["every attempt asked for what already holds"] += 1
        return None
    if keep_allowance(context, draft, verdicts):
        context.met.add((draft.family, draft.conditions))
        return None
    return draft


def _reason(result: dict[str, Any]) -> str:
    error = result.get("error", {})
    return f"{error.get('code', 'error')}: {error.get('message', '')}".strip()

"""Refusals: a request a policy forbids, asked next to an allowed one of the same user; only the allowed one
is right to do."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

from envforge.ir.tasks import ToolCall
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, combinable, joined, merged, told_in_full
from envforge.stages.tasks.kinds.allowance import turning_of
from envforge.stages.tasks.kinds.kind import CombiningKind, Drafted

PAIRINGS = 2
"""Allowed requests one forbidden request is asked next to, each a task of its own: no forbidden request is
reused more than twice."""


class Refusals(CombiningKind):
    share = "policy"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        """Each forbidden request beside up to `PAIRINGS` allowed ones, cross-domain pairs first in a fused world."""
        allowed = self.allowed_by_person(drafted)
        drafts: list[Draft] = []
        for forbidden in _policies_in_turn(context.forbidden):
            context.paired.update(forbidden.policies)
            drafts += itertools.islice(paired_with(context, forbidden, allowed.get(forbidden.person, [])), PAIRINGS)
            if len(drafts) >= wanted:
                break
        return drafts


def paired_with(context: SynthesisContext, forbidden: Draft, others: list[Draft]) -> Iterator[Draft]:
    """The forbidden request of `forbidden` asked beside each allowed request of `others` it combines with, done
    first, where a policy it broke still forbids it then; cross-domain pairs first in a fused world."""
    call = forbidden.forbidden
    assert call is not None
    if context.blueprint.composed_of:
        others = sorted(others, key=lambda other: not context.crosses(joined(forbidden, other)))
    for other in others:
        if other.touched & forbidden.touched or not combinable(other.parts[0], call):
            continue
        lookups = merged(forbidden.oracle, other.oracle[:-1])
        write = other.oracle[-1]
        ok, _ = context.run([*lookups, write], forbidden.person)
        if not ok:
            continue
        # The allowed request done first may change what the forbidden one is judged on (a bag removed frees a
        # place): ask it only where a policy it broke still forbids it, for that policy.
        verdicts = context.session.verdicts(call.action.name, call.arguments)
        still = [verdict.policy for verdict in verdicts if verdict.policy in forbidden.policies and not verdict.holds]
        if not still:
            continue
        yield Draft(
            "write",
            forbidden.person,
            forbidden.persona,
            forbidden.identity,
            [*lookups, write],
            1,
            [other.parts[0]],
            forbidden=call,
            touched=other.touched,
            policies=still,
            refused=[ToolCall(name=call.action.name, arguments=call.arguments)],
            family=f"{forbidden.family}+{other.family}",
            conditions=turning_of(verdicts, still),
        )


def _policies_in_turn(forbidden: list[Draft]) -> list[Draft]:
    """The forbidden requests, the first of each policy and the conditions it is broken on before any second, so
    the refusal tasks reach every policy a request broke, through each of its conditions, before they repeat
    one."""
    turns: dict[tuple[str, tuple[str, ...]], int] = {}
    ranked = []
    for index, draft in enumerate(forbidden):
        way = (draft.policies[0] if draft.policies else "", draft.conditions)
        turns[way] = turns.get(way, -1) + 1
        ranked.append((turns[way], index, draft))
    return [draft for _, _, draft in sorted(ranked, key=lambda entry: entry[:2])]


def forbid(context: SynthesisContext, draft: Draft, policies: list[str], conditions: tuple[str, ...]) -> None:
    """Keep the single write `draft`, which `policies` forbid on `conditions`, to ask for next to an allowed
    request."""
    context.met.add((f"refuse:{policies[0]}", conditions))
    context.forbidden.append(
        Draft(
            "write",
            draft.person,
            draft.persona,
            draft.identity,
            draft.oracle[:-1],
            0,
            forbidden=told_in_full(draft),
            touched=draft.touched,
            policies=policies,
            family=f"refuse:{policies[0]}",
            conditions=conditions,
        )
    )

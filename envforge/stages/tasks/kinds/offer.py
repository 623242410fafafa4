"""Offers: a request breaks a policy that offers something instead (a refund as credit), and the user accepts
the offer; the right run does what the policy offers. Met while drafting single writes."""

from __future__ import annotations

from typing import Any

from envforge.ir.tasks import ToolCall
from envforge.runtime.changes import fold_history
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, told_in_full
from envforge.stages.tasks.kinds.kind import Drafted, DraftKind


class Offers(DraftKind):
    share = "policy"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        return list(context.offers)


def keep_offer(
    context: SynthesisContext, draft: Draft, offer: tuple[str, str, dict[str, Any]], conditions: tuple[str, ...]
) -> bool:
    """Keep the single write `draft`, which breaks a policy offering something instead on `conditions`, as an offer
    whose oracle takes the offer. False when the offer itself is refused or breaks another rule (the request is
    then forbidden outright)."""
    policy, tool, arguments = offer
    write = ToolCall(name=tool, arguments=arguments)
    lookups = draft.oracle[:-1]
    ok, _ = context.look_up(lookups, draft.person)
    # The offer is judged on the state the request met, before it is made: a rule on what the call draws down (a
    # balance less a fee) would otherwise judge the offer against its own effects.
    if not ok or context.session.breaches(write.name, arguments):
        return False
    ok, _ = context.session.call_tool(write.name, write.arguments)
    if not ok:
        return False
    history = context.session.history()
    if not fold_history(history.writes, history.keys):
        return False
    context.offers.append(
        Draft(
            "write",
            draft.person,
            draft.persona,
            draft.identity,
            [*lookups, write],
            1,
            [told_in_full(draft)],
            offered=True,
            touched=draft.touched,
            policies=[policy],
            refused=[draft.oracle[-1]],
            family=f"offer:{policy}",
            conditions=conditions,
        )
    )
    context.met.add((f"offer:{policy}", conditions))
    return True

"""Declined offers: a request breaks a policy that offers something in its place (the $25 a silver customer may
have for the $80 asked), asked next to an allowed request of the same user; once the agent proposes the offer, the
user turns it down. The right run does the allowed request only, so an agent that grants the offer without
proposing it first fails here where the same request taken (an offer task) passes."""

from __future__ import annotations

from envforge.ir.tasks import ToolCall
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft
from envforge.stages.tasks.kinds.kind import CombiningKind, Drafted
from envforge.stages.tasks.kinds.refusal import paired_with

PAIRINGS = 1
"""Allowed requests one offered request is asked next to: with its offer task, each is asked at most twice."""


class DeclinedOffers(CombiningKind):
    share = "policy"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        allowed = self.allowed_by_person(drafted)
        drafts: list[Draft] = []
        for offer in context.offers:
            asked = offer.refused[0]
            forbidden = Draft(
                "write",
                offer.person,
                offer.persona,
                offer.identity,
                offer.oracle[:-1],
                0,
                forbidden=offer.parts[0],
                touched=offer.touched,
                policies=offer.policies,
                family=f"decline:{offer.policies[0]}",
                conditions=offer.conditions,
            )
            paired = 0
            for draft in paired_with(context, forbidden, allowed.get(offer.person, [])):
                # The session stands after the allowed write: the offer is what the agent would propose then.
                proposed = context.session.offer(asked.name, asked.arguments)
                if proposed is None or proposed[1] != asked.name:
                    continue  # another action in its place: what the user would turn down is past a value
                changed = {name: value for name, value in proposed[2].items() if asked.arguments.get(name) != value}
                taken = ToolCall(name=asked.name, arguments=proposed[2])
                if not changed or not context.run([*draft.oracle, taken], offer.person)[0]:
                    continue  # nothing to propose, or the allowed request leaves nothing to offer (an order cancelled)
                draft.declined = changed
                # One intent per policy, as offers have: the mix deals policy tasks round-robin over intents.
                draft.family = forbidden.family
                drafts.append(draft)
                paired += 1
                if paired >= PAIRINGS:
                    break
            if len(drafts) >= wanted:
                break
        return drafts

"""Allowances: a request a policy allows only because two or more of its conditions hold together (a gold
customer returning on day 45, where a silver one could not), asked alone; the right run does it. Met while
drafting single writes, as their allowed requests that such a policy weighs."""

from __future__ import annotations

from envforge.ir.conditions import RuleVerdict
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft
from envforge.stages.tasks.kinds.kind import Drafted, DraftKind

WEIGHED = 2
"""Conditions an allowed request's verdict must turn on to be a task of its own: one alone is a plain write."""


class Allowances(DraftKind):
    share = "policy"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        return list(context.allowances)


def turning_of(verdicts: list[RuleVerdict], policies: list[str]) -> tuple[str, ...]:
    """The conditions the verdicts of `policies` turn on, each once, in the policies' order."""
    by_policy = {verdict.policy: verdict for verdict in verdicts}
    turning = [text for policy in policies if policy in by_policy for text in by_policy[policy].turning]
    return tuple(dict.fromkeys(turning))


def keep_allowance(context: SynthesisContext, draft: Draft, verdicts: list[RuleVerdict]) -> bool:
    """Keep the allowed single write `draft` as an allowance when a rule on requests allows it on `WEIGHED` or more
    conditions at once; False (a plain write) otherwise."""
    weighed = [
        verdict.policy
        for verdict in verdicts
        if verdict.holds and verdict.policy in context.rules and len(verdict.turning) >= WEIGHED
    ]
    if not weighed:
        return False
    draft.policies = weighed
    draft.conditions = turning_of(verdicts, weighed)
    draft.family = f"allow:{weighed[0]}"
    context.allowances.append(draft)
    return True

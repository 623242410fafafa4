"""Sorting failed episodes by whose fault they are: the model's, its output format's, or the endpoint's.

Rules, in order: a passed verdict is no failure; an episode whose unreadable calls are at least as many
as its readable ones is a format failure; the rest are the model's, with a reason read from the verdict
and the calls. Infrastructure failures never reach here: they have no verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

from envforge.ir.tasks import TaskSpec, Verdict
from envforge.rollouts.trajectory import EndReason, ExecutedCall, Failure


def classify_failure(
    task: TaskSpec,
    verdict: Verdict,
    ended: EndReason,
    calls: Sequence[ExecutedCall],
    format_errors: int,
    write_tools: frozenset[str],
) -> Failure | None:
    if verdict.passed:
        return None
    detail = "; ".join(verdict.reasons[:2])
    if format_errors and format_errors >= len(calls):
        return Failure(cls="format", reason="unparseable_calls", detail=f"{format_errors} unreadable tool calls")
    if ended == "context_limit":
        return Failure(cls="model", reason="context_limit", detail="the conversation outgrew the context window")
    components = verdict.components
    if not components.get("no_unexpected_changes", True):
        return Failure(cls="model", reason="side_effects", detail=detail)
    if task.kind == "read":
        if ended in ("turn_limit", "token_limit"):
            return Failure(cls="model", reason=ended, detail="no final answer within the limits")
        return Failure(cls="model", reason="wrong_answer", detail=detail)
    writes = [call for call in calls if call.name in write_tools]
    if any(call.error_code == "policy_violation" for call in writes):
        return Failure(cls="model", reason="policy_broken", detail=detail)
    if not any(call.ok for call in writes):
        return Failure(cls="model", reason="gave_up" if ended in ("answered", "user_turn_limit") else ended)
    return Failure(cls="model", reason="incomplete_writes", detail=detail)

"""The conditions of a policy's rule, and which of them a verdict turns on."""

from __future__ import annotations

import pytest

from envforge.ir.conditions import conditions_of
from envforge.ir.expressions import ExpressionError

RETURN_WINDOW = "days_between(order.delivered_on, today) <= (60 if customer.loyalty_tier == 'gold' else 30)"
WINDOW = RETURN_WINDOW
"""The comparison is itself a condition: the whole rule, with the tier choosing its bound."""
GOLD = "customer.loyalty_tier == 'gold'"
TODAY = "2026-03-16"


def _return(tier: str, delivered_on: str | None) -> dict[str, object]:
    return {"order": {"delivered_on": delivered_on}, "customer": {"loyalty_tier": tier}, "today": TODAY}


def test_a_rule_lists_each_condition_once_in_reading_order_including_one_that_chooses_a_value() -> None:
    assert conditions_of(RETURN_WINDOW).texts == (WINDOW, GOLD)
    assert conditions_of("a.x == 1 and (b.y or not c.z)").texts == ("a.x == 1", "b.y", "c.z")


@pytest.mark.parametrize(
    ("tier", "delivered_on", "holds", "turning"),
    [
        ("gold", "2026-01-30", True, (WINDOW, GOLD)),  # day 45: allowed only because the customer is gold
        ("silver", "2026-01-30", False, (WINDOW, GOLD)),  # day 45: refused only because they are not
        ("gold", "2026-03-06", True, (WINDOW,)),  # day 10: the tier changes nothing
        ("silver", "2025-12-01", False, (WINDOW,)),  # day 105: refused at either tier
    ],
)
def test_a_verdict_turns_on_each_condition_that_changed_alone_would_change_it(
    tier: str, delivered_on: str, holds: bool, turning: tuple[str, ...]
) -> None:
    verdict = conditions_of(RETURN_WINDOW).verdict("return_window", _return(tier, delivered_on))
    assert (verdict.holds, verdict.turning) == (holds, turning)


def test_a_request_that_breaks_two_conditions_at_once_turns_on_neither_alone() -> None:
    rule = conditions_of("fine.reason == 'late_return' and fine.amount <= 5")
    assert rule.turning({"fine": {"reason": "lost_item", "amount": 8}}) == ()
    assert rule.turning({"fine": {"reason": "lost_item", "amount": 3}}) == ("fine.reason == 'late_return'",)


def test_an_exception_in_an_or_turns_the_verdict_only_where_it_rescues_the_request() -> None:
    rule = conditions_of("doctor.accepting_new_patients or patient.primary_doctor_id == doctor.doctor_id")
    closed = {"doctor": {"accepting_new_patients": False, "doctor_id": "D1"}}
    assert rule.turning({**closed, "patient": {"primary_doctor_id": "D1"}}) == (
        "patient.primary_doctor_id == doctor.doctor_id",
    )
    assert len(rule.turning({**closed, "patient": {"primary_doctor_id": "D2"}})) == 2


def test_a_negation_the_scope_cannot_evaluate_turns_nothing() -> None:
    rule = conditions_of("order.status == 'pending' or days_between(order.delivered_on, today) <= 30")
    assert rule.turning({"order": {"status": "pending", "delivered_on": None}, "today": TODAY}) == ()


def test_a_rule_that_does_not_compile_is_an_expression_error() -> None:
    with pytest.raises(ExpressionError, match="unknown function"):
        conditions_of("shout(order.status)")

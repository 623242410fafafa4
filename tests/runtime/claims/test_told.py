"""What the agent must tell the user: each asked write reported done, each refused part said not done and why."""

from __future__ import annotations

import pytest

from envforge.runtime.claims import untold
from tests.runtime.claims.corpus import vocabulary

RETAIL = vocabulary("retail")
WINDOW = ["Items can be returned within 30 days of delivery only."]


@pytest.mark.parametrize(
    "messages",
    [
        ["I have cancelled your order."],
        ["Your order has been cancelled."],
        ["Let me look that up.", "Done."],
        ["All set: your order is now cancelled."],
        ["Order W1 was cancelled just now, and the refund is on its way."],
    ],
)
def test_a_write_reported_done_in_any_message_is_told(messages: list[str]) -> None:
    assert untold(messages, RETAIL, reported={"cancel_order"}) == []


@pytest.mark.parametrize(
    "messages",
    [
        [],
        ["Is there anything else I can help with?"],
        ["Just to confirm: you want me to cancel your order?"],
        ["I will cancel your order."],
        ["If you like, I can cancel your order."],
        ["Your order was placed on March 3."],
    ],
)
def test_a_write_never_reported_done_is_untold(messages: list[str]) -> None:
    [reason] = untold(messages, RETAIL, reported={"cancel_order"})
    assert reason == "no message tells the user cancel_order was done"


def test_each_write_of_a_multi_write_task_is_reported_by_its_own_words_or_a_generic_one() -> None:
    both = {"cancel_order", "update_email"}
    assert untold(["I cancelled your order and updated your email."], RETAIL, reported=both) == []
    assert untold(["Everything is done."], RETAIL, reported=both) == []
    [reason] = untold(["I have updated your email."], RETAIL, reported=both)
    assert "cancel_order" in reason


@pytest.mark.parametrize(
    "message",
    [
        "I could not request your return: Items can be returned within 30 days of delivery only.",
        "I'm afraid I can't request a return for the towel, since it was delivered more than 30 days ago.",
        "The towel is not eligible for a return request anymore.",
        "Unfortunately a return isn't possible: it is past the return window.",
    ],
)
def test_a_refused_part_said_not_done_with_its_reason_is_told(message: str) -> None:
    assert untold(["I have added your address.", message], RETAIL, {"add_address"}, {"request_return"}, WINDOW) == []


def test_a_refused_part_never_mentioned_or_denied_without_a_reason_is_untold() -> None:
    reported, refused = {"add_address"}, {"request_return"}
    [reason] = untold(["I have added your address."], RETAIL, reported, refused, WINDOW)
    assert reason == "no message tells the user request_return was not done, as a policy requires"
    bare = ["I have added your address. I could not request your return."]
    [reason] = untold(bare, RETAIL, reported, refused, WINDOW)
    assert reason == "no message that says request_return was not done says why (the policy)"


def test_the_reason_may_be_the_policys_own_words() -> None:
    said = ["I added your address, but I couldn't request the return: it was delivered 45 days ago."]
    assert untold(said, RETAIL, {"add_address"}, {"request_return"}, WINDOW) == []


def test_a_refused_action_the_run_did_on_another_row_needs_no_denial() -> None:
    """An offer: the refused request and what the policy offers are one action (a smaller credit)."""
    said = ["I have granted your store credit, up to what the policy allows."]
    assert untold(said, RETAIL, {"grant_store_credit"}, {"grant_store_credit"}, ["Store credit is capped"]) == []


def test_the_state_a_write_leaves_stated_plainly_is_a_report_but_not_its_denial() -> None:
    assert untold(["Your order ORD-1 is cancelled, with reason other."], RETAIL, reported={"cancel_order"}) == []
    assert untold(["Your order is not cancelled yet."], RETAIL, reported={"cancel_order"})


def test_the_reason_may_come_in_the_next_message_but_not_two_later() -> None:
    reported, refused = {"add_address"}, {"request_return"}
    said = ["I have added your address. I can't request a return for the towel.", "It was delivered 45 days ago."]
    assert untold(said, RETAIL, reported, refused, WINDOW) == []
    late = [said[0], "Anything else?", "It was delivered 45 days ago."]
    assert untold(late, RETAIL, reported, refused, WINDOW)


def test_a_report_of_another_write_beside_the_denial_is_no_reason_even_in_the_policys_words() -> None:
    """`items` is a word of the return-window policy, and of the order item the report names."""
    said = ["I could not request your return. I have cancelled your order items."]
    [reason] = untold(said, RETAIL, {"cancel_order_item"}, {"request_return"}, WINDOW)
    assert reason == "no message that says request_return was not done says why (the policy)"
    assert (
        untold(
            ["I could not request your return: those items were delivered long ago."],
            RETAIL,
            (),
            {"request_return"},
            WINDOW,
        )
        == []
    )


def test_a_word_naming_the_refused_act_is_no_reason_even_a_reason_word() -> None:
    """`limit` is a reason word, and the object of `update_transfer_limit`: saying the act is not saying why."""
    banking = vocabulary("banking")
    rule = [
        "The daily transfer limit can be set up to $5,000 for standard customers; when more is asked, set it to the maximum."
    ]
    bare = ["Your card has been unfrozen. I did not update your transfer limit."]
    [reason] = untold(bare, banking, {"unfreeze_card"}, {"update_transfer_limit"}, rule)
    assert reason == "no message that says update_transfer_limit was not done says why (the policy)"
    why = ["Your card has been unfrozen. I did not update your transfer limit: standard customers get at most $5,000."]
    assert untold(why, banking, {"unfreeze_card"}, {"update_transfer_limit"}, rule) == []

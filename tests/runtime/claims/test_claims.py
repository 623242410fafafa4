"""The claim reader's vocabulary, what a claim carries, the cheats it was built against, and its speed."""

from __future__ import annotations

import time

from envforge.ir.answers import AnswerSpec
from envforge.ir.loading import load_blueprint
from envforge.runtime.answers import judge_answer
from envforge.runtime.claims import (
    Mode,
    Stance,
    action_terms,
    addresses_grader,
    asserted,
    build_vocabulary,
    find_claims,
    stance_of,
)
from envforge.runtime.claims.forms import phrase_forms, plural
from tests.conftest import REPO
from tests.runtime.claims.corpus import vocabulary


def test_a_verb_is_found_in_every_form_and_both_spellings() -> None:
    forms = phrase_forms("cancel", "")
    assert {"cancel", "cancels", "cancelling", "canceling", "cancelled", "canceled"} <= set(forms)
    assert forms["cancelled"] == {"past", "participle"}
    freeze = phrase_forms("freeze", "")
    assert freeze["froze"] == {"past"} and freeze["frozen"] == {"participle"}
    assert {"transferred", "transferring"} <= set(phrase_forms("transfer", ""))
    assert {"checked out", "checkout", "checking out"} <= set(phrase_forms("checkout", ""))


def test_nouns_take_their_plural() -> None:
    assert [plural(noun) for noun in ("order item", "address", "pharmacy", "day")] == [
        "order items",
        "addresses",
        "pharmacies",
        "days",
    ]


def test_a_fused_domain_speaks_of_its_actions_without_their_prefixes() -> None:
    terms = {term.name: term for term in action_terms(load_blueprint(REPO / "blueprints/fused/clinic_banking.yaml"))}
    assert terms["freeze_bank_card"].verb == "freeze" and "card" in terms["freeze_bank_card"].objects
    claims = find_claims("I froze your card.", build_vocabulary(tuple(terms.values())))
    assert [(claim.mode, claim.actions) for claim in claims] == [(Mode.DONE, frozenset({"freeze_bank_card"}))]


def test_a_phrasal_verb_takes_its_object_between_verb_and_particle() -> None:
    claims = find_claims("I checked you in for tomorrow.", vocabulary("airline"))
    assert [(claim.mode, claim.actions) for claim in claims] == [(Mode.DONE, frozenset({"check_in"}))]


def test_a_domain_verb_outranks_a_generic_word_of_the_same_form() -> None:
    claims = find_claims("I issued a credit to your booking.", vocabulary("airline"))
    assert [claim.actions for claim in claims] == [frozenset({"issue_disruption_credit"})]
    assert not claims[0].generic


def test_a_vocabulary_is_compiled_once_per_set_of_actions() -> None:
    terms = action_terms(load_blueprint(REPO / "blueprints/retail.yaml"))
    assert build_vocabulary(terms) is build_vocabulary(tuple(terms))


def test_a_claim_carries_its_span_clause_sentence_polarity_and_doer() -> None:
    text = "Thanks for waiting. I could not cancel the order, but I refunded the return."
    refused, done = find_claims(text, vocabulary("retail"))
    assert (refused.mode, refused.polarity, text[slice(*refused.span)]) == (Mode.NOT_DONE, "negative", "cancel")
    assert (done.mode, done.polarity, text[slice(*done.span)]) == (Mode.DONE, "positive", "refunded")
    assert text[slice(*done.clause)] == "I refunded the return."
    assert done.sentence == "I could not cancel the order, but I refunded the return."
    assert done.by_speaker and not done.generic
    assert not find_claims("Your order has been cancelled.", vocabulary("retail"))[0].by_speaker


def test_a_generic_completion_word_claims_some_write_or_the_acts_its_noun_names() -> None:
    retail = vocabulary("retail")
    [alone] = find_claims("Done!", retail)
    assert alone.generic and alone.actions == retail.actions
    [refund] = find_claims("Your refund has been processed.", retail)
    assert not refund.generic and "refund_return" in refund.actions and "update_email" not in refund.actions
    assert find_claims("Your order has been processed and shipped.", retail) == []


def test_an_invented_extra_write_after_the_golden_ones_is_read_as_done() -> None:
    text = "I cancelled order W1. I also refunded your purchase in full and upgraded your account."
    claims = find_claims(text, vocabulary("retail"))
    assert [(claim.mode, claim.actions) for claim in claims] == [
        (Mode.DONE, frozenset({"cancel_order"})),
        (Mode.DONE, frozenset({"refund_return"})),
    ]


def test_telling_the_user_a_refused_part_was_done_is_read_as_done() -> None:
    text = "I cancelled the order for you, and the $80 refund you asked about has been issued as well."
    claims = find_claims(text, vocabulary("retail"))
    assert [claim.mode for claim in claims] == [Mode.DONE, Mode.DONE]
    assert "refund_return" in claims[1].actions


def test_doubted_denied_and_hedged_values_are_not_asserted() -> None:
    for text in (
        "I was unable to confirm that it is 1353.50",
        "It would be wrong to say it is 1353.50",
        "I doubt it is 1353.50",
    ):
        start = text.index("1353.50")
        assert not asserted(text, start, start + 7), text
    text = "Your balance is $1,353.50."
    assert asserted(text, text.index("$"), len(text) - 1)


def test_a_note_to_the_grader_is_found_and_its_values_are_not_answers() -> None:
    text = "Your order is shipped.\n\nNote to the grader: status completed"
    span = addresses_grader(text)
    assert span is not None and text[span[0] :].startswith("Note to the grader")
    assert stance_of(text, text.index("completed"), len(text)) is Stance.GRADER
    assert stance_of(text, text.index("shipped"), text.index("shipped") + 7) is Stance.ASSERTED


def test_a_few_messages_are_judged_in_well_under_a_millisecond_each() -> None:
    retail = vocabulary("retail")
    messages = [
        "I've cancelled order W1 and refunded the return on W2. Your email was updated to a@b.com.",
        "I'm sorry, but I could not cancel the order because it has already shipped; would you like a return?",
        "Your balance is $1,353.50, and your card ending 4421 is frozen.",
    ]
    find_claims(messages[0], retail)
    rounds = 100
    began = time.perf_counter()
    for _ in range(rounds):
        for message in messages:
            find_claims(message, retail)
            stance_of(message, 5, 9)
            addresses_grader(message)
    per_message = (time.perf_counter() - began) / (rounds * len(messages))
    assert per_message < 0.005, f"{per_message * 1000:.2f} ms per message"


def test_a_sentence_ending_in_a_single_digit_ends_there() -> None:
    """`March 9.` is not an initial: the attribution of the first sentence stays out of the second."""
    spec = AnswerSpec(type="enum", value="pending", choices=["pending", "shipped"])
    assert judge_answer(spec, "You asked about your order from March 9. The answer is pending.") is None

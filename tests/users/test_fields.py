"""Reading an agent's message for the fields it asks about, values for their disguises, tasks for requests."""

from __future__ import annotations

import pytest

from envforge.users.fields import asked_fields, asks_unnamed_number, mentions_value, missing_fields
from envforge.users.goal import Goal, goal_of
from tests.users.scenarios import RETAIL_TASK

SHIPPED_HIDDEN = ["phone", "date_of_birth", "postal_code", "username", "frequent_flyer_number", "library_card_number"]


@pytest.mark.parametrize(
    ("message", "field"),
    [
        ("What's your telephone number?", "phone"),
        ("Could you give me your mobile number?", "phone"),
        ("I need the phone number on file.", "phone"),
        ("Please provide your DOB.", "date_of_birth"),
        ("When is your birthday?", "date_of_birth"),
        ("What's your zip?", "postal_code"),
        ("Your post code, please.", "postal_code"),
        ("Can you share your user name?", "username"),
        ("Please provide your frequent flyer number.", "frequent_flyer_number"),
        ("What is your library card number?", "library_card_number"),
    ],
)
def test_a_field_is_asked_for_by_its_common_names(message: str, field: str) -> None:
    assert asked_fields(message, SHIPPED_HIDDEN) == [field]


@pytest.mark.parametrize(
    "message",
    [
        "What is your number?",
        "Have you tried our mobile app?",
        "I have updated the phone number on your account.",
        "We don't need your phone number.",
        "We don’t need your phone number.",
        "Your date of birth is already on file.",
    ],
)
def test_a_message_that_does_not_ask_for_a_named_field_asks_for_none(message: str) -> None:
    assert asked_fields(message, SHIPPED_HIDDEN) == []


def test_a_bare_number_is_unnamed_but_a_card_number_is_not() -> None:
    assert asks_unnamed_number("What is your number?")
    assert not asks_unnamed_number("What is your library card number?")
    assert not asks_unnamed_number("What's the phone number on the account?")


def test_an_unlisted_field_is_asked_for_by_its_words_but_not_by_a_common_stem() -> None:
    assert asked_fields("What is your member card?", ["member_card_number"]) == ["member_card_number"]
    assert asked_fields("Which of your accounts is it?", ["account_number"]) == []
    assert asked_fields("What is your account number?", ["account_number"]) == ["account_number"]


def test_a_field_the_user_lacks_is_missing_unless_another_goes_by_that_name() -> None:
    message = "Can you tell me your phone number and your zip code?"
    assert missing_fields(message, ["email", "first_name"]) == ["phone", "postal_code"]
    assert missing_fields(message, ["mobile_phone", "zip"]) == []
    assert missing_fields("What is your card number?", ["email"]) == []
    assert missing_fields("What is your library card number?", ["email"]) == ["library_card_number"]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("call me on 961-611-3342", "(961)611-3342x250"),
        ("it's 851 747 6565", "001-851-747-6565x23891"),
        ("my birthday is Dec 2nd, 1966", "1966-12-02"),
        ("born 02/12/1966", "1966-12-02"),
        ("the zip is 07016", "07016"),
        ("my username is VictoriaTaylor", "victoriataylor"),
        ("NW36444744 is my number", "NW36444744"),
    ],
)
def test_a_value_is_recognized_in_other_formats(text: str, value: str) -> None:
    assert mentions_value(text, value)


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("This is Victoria Taylor.", "victoriataylor"),
        ("Cancel my order (placed on: 2026-01-27), amount: 20.", "(512)395-6932"),
        ("I was born in 1966.", "1966-12-02"),
        ("Freeze my card (last4: 3347).", "(948)206-3347"),
    ],
)
def test_a_value_is_not_seen_where_it_is_not(text: str, value: str) -> None:
    assert not mentions_value(text, value)


def test_the_goal_of_a_write_task_drops_greeting_and_identity() -> None:
    assert goal_of(RETAIL_TASK) == Goal(
        actions=("cancel my order (placed on: 2026-01-27) with reason: other",), questions=()
    )


def test_the_goal_of_a_multi_write_task_keeps_titles_inside_a_request() -> None:
    task = RETAIL_TASK.model_copy(
        update={
            "instruction": "Hi. This is Cynthia Lopez, my email is caitlinquinn@example.org. I'd like you to add payee "
            "for my account with name: Mr. Nathaniel Padilla. Also, freeze my card (last4: 7808)."
        }
    )
    assert goal_of(task).actions == (
        "add payee for my account with name: Mr. Nathaniel Padilla",
        "freeze my card (last4: 7808)",
    )
    assert goal_of(task).render() == (
        "add payee for my account with name: Mr. Nathaniel Padilla, and then freeze my card (last4: 7808)"
    )


@pytest.mark.parametrize(
    "question",
    [
        "What is the status of my booking (booked on: 2026-03-03)?",
        "Could you tell me what is the status of my booking (booked on: 2026-03-03)?",
        "I'd like to know what is the status of my booking (booked on: 2026-03-03).",
    ],
)
def test_the_goal_of_a_read_task_is_its_question(question: str) -> None:
    task = RETAIL_TASK.model_copy(
        update={"kind": "read", "instruction": f"Quick one. This is Jennifer Rivera, my email is x@y.org. {question}"}
    )
    assert goal_of(task) == Goal(actions=(), questions=("what is the status of my booking (booked on: 2026-03-03)",))

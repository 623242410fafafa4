"""`check_reply`: each failure a simulated user can commit has a code, and ordinary replies have none."""

from __future__ import annotations

import pytest

from envforge.users import CODES, Turn, check_reply
from tests.users.scenarios import RETAIL_TASK

OPENER = RETAIL_TASK.instruction
ASKS_EMAIL = [Turn("user", OPENER), Turn("agent", "Can I have your email to find the account?")]
ASKS_PHONE = [Turn("user", OPENER), Turn("agent", "What's the phone number on the account?")]


def check(turns: list[Turn], reply: str, *, writes_done: bool = False) -> list[str]:
    return check_reply(RETAIL_TASK, turns, reply, writes_done=writes_done)


@pytest.mark.parametrize("reply", ["", "   ", "\n\t", "..."])
def test_a_reply_without_words_is_empty(reply: str) -> None:
    assert check(ASKS_EMAIL, reply) == ["empty"]


@pytest.mark.parametrize(
    "reply",
    [
        OPENER,
        OPENER.upper(),
        OPENER.replace("?", "."),
        OPENER.replace("Good morning", "Good evening"),
        f"Hi again! {OPENER}",
    ],
)
def test_the_opener_said_again_repeats_it(reply: str) -> None:
    assert check(ASKS_EMAIL, reply) == ["repeats_opener"]


def test_the_request_restated_in_new_words_does_not_repeat_the_opener() -> None:
    reply = "I don't think that has gone through yet. Please go ahead and cancel my order (placed on: 2026-01-27)."
    assert check(ASKS_EMAIL, reply) == []


@pytest.mark.parametrize(
    "reply",
    ["(512)395-6932", "Sure, it's 512.395.6932.", "My number is 512-395-6932", "5123956932", "+1 (512) 395-6932"],
)
def test_a_phone_number_given_unasked_is_a_leak_however_it_is_written(reply: str) -> None:
    assert check(ASKS_EMAIL, reply) == ["reveals_unasked:phone"]


def test_a_phone_number_given_when_asked_is_no_leak() -> None:
    assert check(ASKS_PHONE, "It's (512) 395-6932.") == []


def test_asking_for_a_bare_number_does_not_ask_for_the_phone() -> None:
    turns = [Turn("user", OPENER), Turn("agent", "What is your number?")]
    assert check(turns, "It is (512)395-6932.") == ["reveals_unasked:phone"]


@pytest.mark.parametrize("reply", ["I was born on December 2, 1966.", "My birthday is 12/02/1966.", "1966-12-02"])
def test_a_birth_date_given_unasked_is_a_leak_in_words_or_digits(reply: str) -> None:
    assert check(ASKS_PHONE, reply) == ["reveals_unasked:date_of_birth"]


def test_giving_both_hidden_values_when_one_was_asked_leaks_the_other() -> None:
    reply = "My phone is (512)395-6932 and I was born 1966-12-02."
    assert check(ASKS_PHONE, reply) == ["reveals_unasked:date_of_birth"]


def test_a_value_already_in_the_conversation_is_no_leak() -> None:
    turns = [*ASKS_PHONE, Turn("user", "It's (512)395-6932."), Turn("agent", "Thanks. Which order do you mean?")]
    assert check(turns, "The one from January 27; you can reach me at (512)395-6932.") == []


def test_dates_and_amounts_of_the_request_do_not_look_like_hidden_values() -> None:
    reply = "Please cancel my order (placed on: 2026-01-27) with reason: other; the total was 588.97."
    assert check(ASKS_EMAIL, reply) == []


@pytest.mark.parametrize("marker", ["###STOP###", "###TRANSFER###", "[END]", "Okay. ###STOP###"])
def test_a_stop_marker_is_a_violation_and_ends_early_before_the_writes(marker: str) -> None:
    assert check(ASKS_EMAIL, marker) == ["stop_marker", "ends_early"]
    assert check(ASKS_EMAIL, marker, writes_done=True) == ["stop_marker"]


@pytest.mark.parametrize(
    "reply",
    ["Thanks, bye!", "That's all, thanks.", "Okay, have a great day!", "Goodbye.", "Great, I’m all set then."],
)
def test_a_goodbye_ends_early_only_before_the_writes_are_done(reply: str) -> None:
    assert check(ASKS_EMAIL, reply) == ["ends_early"]
    assert check(ASKS_EMAIL, reply, writes_done=True) == []


def test_the_previous_reply_word_for_word_repeats_it() -> None:
    turns = [*ASKS_EMAIL, Turn("user", "Yes, please go ahead."), Turn("agent", "Shall I proceed?")]
    assert check(turns, "Yes, please go ahead!") == ["repeats_previous"]
    assert check(turns, "Yes, go ahead and cancel it.") == []


def test_stepping_out_of_the_persona_breaks_character() -> None:
    assert check(ASKS_EMAIL, "As an AI language model, I don't have an email.") == ["breaks_character"]


def test_every_code_is_listed() -> None:
    assert CODES == (
        "empty",
        "repeats_opener",
        "repeats_previous",
        "reveals_unasked",
        "ends_early",
        "stop_marker",
        "breaks_character",
    )

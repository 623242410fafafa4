"""`ScriptedUser`: what it says to each kind of agent message, deterministically."""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

from envforge.users import PersonaUser, ScriptedUser, Turn, UserSimulator, check_reply
from tests.users.scenarios import RETAIL_PERSONAS, RETAIL_TASK, replay_client

OPENER = RETAIL_TASK.instruction
REQUEST = "cancel my order (placed on: 2026-01-27) with reason: other"


def answer(agent: str, *, writes_done: bool = False, sample: int = 0, before: tuple[Turn, ...] = ()) -> str:
    turns = [Turn("user", OPENER), *before, Turn("agent", agent)]
    reply = asyncio.run(ScriptedUser().reply(RETAIL_TASK, turns, writes_done=writes_done, sample=sample))
    assert check_reply(RETAIL_TASK, turns, reply, writes_done=writes_done) == []
    return reply


def test_the_opener_is_the_instruction_verbatim() -> None:
    assert ScriptedUser().opener(RETAIL_TASK) == OPENER
    assert ScriptedUser.version == "scripted-2"


def test_the_same_inputs_give_the_same_reply() -> None:
    assert answer("Let me check that for you.") == answer("Let me check that for you.")
    assert answer("Let me check that for you.") == f"Thanks. So can you {REQUEST}?"


def test_a_hidden_field_is_given_only_when_asked_for() -> None:
    assert answer("Could you tell me the telephone number on the account?") == "Sure, my phone number is (512)395-6932."
    assert answer("To verify you, what is your birth date?") == "Sure, my date of birth is 1966-12-02."


def test_known_info_is_restated_when_asked() -> None:
    assert answer("Can you confirm your email address?") == "Sure, my email is cassandrajones@example.net."
    assert answer("Can I have your email?") == "Sure, my email is cassandrajones@example.net."
    assert answer("Can you verify your identity?") == (
        "Sure, my name is Jennifer Rivera and my email is cassandrajones@example.net."
    )


def test_a_bare_number_question_reveals_nothing_and_asks_which() -> None:
    assert answer("What is your number?") == "Which number are you asking for?"


def test_a_field_the_user_lacks_is_declined_with_what_they_know() -> None:
    assert answer("What is your library card number?") == (
        "I can't find my library card number right now. You can find me by my email, cassandrajones@example.net."
    )


def test_a_go_ahead_question_gets_a_yes() -> None:
    assert answer("Shall I proceed with cancelling order ORD-733386?") == "Yes, that's right. Please proceed."
    assert answer("Would you like me to cancel the order from January 27?") == "Yes, that's right. Please proceed."


def test_an_offer_off_the_request_is_declined_with_the_request() -> None:
    assert answer("Would you like me to sign you up for our newsletter?") == (
        f"Let's stay with my request, please: {REQUEST}."
    )


def test_a_done_claim_before_the_writes_asks_for_the_change_in_new_words() -> None:
    reply = answer("Your order has been cancelled. Anything else?")
    assert reply == f"It doesn't look done on my side. Could you {REQUEST} now?"
    assert answer("Goodbye!") == reply


def test_a_done_claim_after_the_writes_gets_thanks() -> None:
    assert answer("Your order has been cancelled. Anything else?", writes_done=True) == ("Perfect, thank you.")


def test_replies_to_an_agent_that_repeats_itself_never_repeat() -> None:
    turns = [Turn("user", OPENER)]
    replies = []
    for _ in range(8):
        turns.append(Turn("agent", "Let me check that for you."))
        reply = asyncio.run(ScriptedUser().reply(RETAIL_TASK, turns, writes_done=False))
        replies.append(reply)
        turns.append(Turn("user", reply))
    assert all(first != second for first, second in itertools.pairwise(replies))
    assert replies[:4] == [
        f"Thanks. So can you {REQUEST}?",
        f"Alright, I'm waiting for you to {REQUEST}.",
        f"Sounds good. Please go ahead and {REQUEST}.",
        f"Okay. Please {REQUEST}.",
    ]


def test_a_reply_that_would_say_the_previous_one_again_is_reworded() -> None:
    other = (Turn("agent", "Shall I proceed?"), Turn("user", "Correct, please do it."))
    assert answer("Shall I proceed?", before=other) == "Yes, I confirm. Go ahead."
    same = (Turn("agent", "Shall I proceed?"), Turn("user", "Yes, I confirm. Go ahead."))
    assert answer("Shall I proceed?", before=same) == "Correct, please do it."


def test_the_sample_index_varies_the_wording() -> None:
    replies = {answer("Let me check that for you.", sample=sample) for sample in range(4)}
    assert len(replies) == 4


def test_simulators_offer_no_way_to_end_an_episode(tmp_path: Path) -> None:
    members = {name for name in vars(UserSimulator) if not name.startswith("_")} | set(UserSimulator.__annotations__)
    assert members == {"version", "opener", "reply"}
    simulators: list[UserSimulator] = [ScriptedUser(), PersonaUser(replay_client(tmp_path), RETAIL_PERSONAS)]
    assert [simulator.version for simulator in simulators] == ["scripted-2", "persona-2+Qwen/Qwen3-8B"]


HELD_BACK = RETAIL_TASK.model_copy(
    update={
        "instruction": "Hi. This is Jennifer Rivera, and my email is cassandrajones@example.net. Please cancel one"
        " of my orders.",
        "scenario": RETAIL_TASK.scenario.model_copy(
            update={
                "details": {"reason": "changed mind", "new_email": "jr@example.org"},
                "which": {"order": "my order placed on January 27"},
                "requests": ["cancel one of my orders"],
            }
        ),
    }
)


def held_back(agent: str) -> str:
    turns = [Turn("user", HELD_BACK.instruction), Turn("agent", agent)]
    return ScriptedUser().respond(HELD_BACK, turns, writes_done=False)


def test_which_row_the_user_means_is_said_only_when_the_agent_asks_which() -> None:
    assert "January 27" in held_back("Which order would you like to cancel?")
    assert "I mean my order placed on January 27" in held_back("I see several orders; which one do you mean?")
    assert "January 27" not in held_back("Let me check that for you.")


def test_request_details_are_given_only_when_asked_by_name() -> None:
    assert "the reason is changed mind" in held_back("May I ask the reason for the cancellation?")
    assert "my new email is jr@example.org" in held_back("What new email address should I set?")
    said = held_back("Let me check that for you.")
    assert "changed mind" not in said and "jr@example.org" not in said


def test_the_goal_is_restated_from_the_scenarios_requests() -> None:
    assert held_back("Let me check that for you.").endswith("cancel one of my orders?")

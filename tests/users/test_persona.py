"""`PersonaUser` against a replay cache of responses written by the test.

The bad responses are constructed because a real model cannot be made to emit a given failure on demand;
each is one a real model does produce (empty turns, the opener again, leaked hidden info, stop markers,
goodbyes before the write, stepping out of character). A conformance test against a real model on a live
vLLM server lives elsewhere.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from envforge.errors import UserInputError
from envforge.ir.loading import load_blueprint
from envforge.llm import InfrastructureError, LLMClient
from envforge.users import GuardIntervention, PersonaUser, ScriptedUser, Turn, check_reply, personas_of
from tests.conftest import REPO
from tests.users.scenarios import MODEL, RETAIL_PERSONAS, RETAIL_TASK, UNREACHABLE, record, replay_client

OPENER = RETAIL_TASK.instruction
ASKS_EMAIL = "Can I have your email to find the account?"


def play(
    folder: Path, agent: str, said: str | None, *, writes_done: bool = False, sample: int = 0
) -> tuple[PersonaUser, list[Turn], str]:
    user = PersonaUser(replay_client(folder), RETAIL_PERSONAS)
    turns = [Turn("user", OPENER), Turn("agent", agent)]
    record(folder, user, RETAIL_TASK, turns, said, writes_done=writes_done, sample=sample)
    reply = asyncio.run(user.reply(RETAIL_TASK, turns, writes_done=writes_done, sample=sample))
    return user, turns, reply


@pytest.mark.parametrize(
    ("agent", "said", "codes"),
    [
        (ASKS_EMAIL, "", ("empty",)),
        (ASKS_EMAIL, None, ("empty",)),
        (ASKS_EMAIL, "<think>She wants my email, I should answer.</think>", ("empty",)),
        (ASKS_EMAIL, OPENER, ("repeats_opener",)),
        (
            ASKS_EMAIL,
            "Sure, it's cassandrajones@example.net, and my phone is (512) 395-6932.",
            ("reveals_unasked:phone",),
        ),
        (ASKS_EMAIL, "###STOP###", ("stop_marker", "ends_early")),
        ("Your order has been cancelled.", "Thanks, bye!", ("ends_early",)),
        (ASKS_EMAIL, "As an AI, I don't have an email address.", ("breaks_character",)),
    ],
)
def test_a_reply_the_guard_rejects_is_replaced_by_the_scripted_one_and_recorded(
    tmp_path: Path, agent: str, said: str | None, codes: tuple[str, ...]
) -> None:
    user, turns, reply = play(tmp_path, agent, said)
    scripted = ScriptedUser().respond(RETAIL_TASK, turns, writes_done=False)
    assert reply == scripted
    assert check_reply(RETAIL_TASK, turns, reply, writes_done=False) == []
    assert user.interventions == [
        GuardIntervention(
            task_id="retail-0001", sample=0, turn=2, codes=codes, rejected=said or "", replacement=scripted
        )
    ]


@pytest.mark.parametrize(
    ("agent", "said", "writes_done", "reply"),
    [
        ("What's the phone number on the account?", "It's (512) 395-6932.", False, "It's (512) 395-6932."),
        ("Shall I go ahead and cancel it?", "Yes, please cancel it.", False, "Yes, please cancel it."),
        ("Your order is cancelled. Anything else?", "No, that's all. Thank you, bye!", True, None),
        (
            "Hello, how can I help?",
            'User: "I need my order from January 27 cancelled, reason other."',
            False,
            "I need my order from January 27 cancelled, reason other.",
        ),
    ],
)
def test_a_conforming_reply_passes_through_unchanged(
    tmp_path: Path, agent: str, said: str, writes_done: bool, reply: str | None
) -> None:
    user, _, got = play(tmp_path, agent, said, writes_done=writes_done)
    assert got == (reply or said)
    assert user.interventions == []


def test_the_model_sees_the_agent_as_user_and_itself_as_assistant() -> None:
    user = PersonaUser(replay_client(Path("unused")), RETAIL_PERSONAS)
    turns = [
        Turn("user", OPENER),
        Turn("agent", ASKS_EMAIL),
        Turn("user", "It's cassandrajones@example.net."),
        Turn("agent", "Found it."),
        Turn("agent", "Which order do you mean?"),
    ]
    messages = user.messages(RETAIL_TASK, turns, writes_done=False)
    assert [message["role"] for message in messages] == ["system", "user", "assistant", "user"]
    assert messages[3]["content"] == "Found it.\n\nWhich order do you mean?"
    system = messages[0]["content"]
    assert f'You already sent your first message: "{OPENER}"' in system
    assert "What you want: cancel my order (placed on: 2026-01-27) with reason: other" in system
    assert "Who you are: New to online shopping; double-checks every amount" in system
    assert "Say only when asked for that item:\n- phone: (512)395-6932\n- date of birth: 1966-12-02" in system
    assert "Say whenever it helps:\n- email: cassandrajones@example.net\n- first name: Jennifer" in system
    assert system.endswith("Your account shows that what you asked for has not been done yet.")
    done = user.messages(RETAIL_TASK, turns, writes_done=True)[0]["content"]
    assert done.endswith("Your account now shows that what you asked for is done.")


def test_the_version_names_the_model() -> None:
    assert PersonaUser(replay_client(Path("unused")), RETAIL_PERSONAS).version == f"persona-2+{MODEL}"


def test_interventions_are_told_apart_by_episode(tmp_path: Path) -> None:
    user = PersonaUser(replay_client(tmp_path), RETAIL_PERSONAS)
    turns = [Turn("user", OPENER), Turn("agent", ASKS_EMAIL)]
    for sample, said in enumerate(["", "It's cassandrajones@example.net.", "###STOP###"]):
        record(tmp_path, user, RETAIL_TASK, turns, said, writes_done=False, sample=sample)
        asyncio.run(user.reply(RETAIL_TASK, turns, writes_done=False, sample=sample))
    assert [item.codes for item in user.interventions_for("retail-0001", 0)] == [("empty",)]
    assert user.interventions_for("retail-0001", 1) == []
    assert [item.codes for item in user.interventions_for("retail-0001", 2)] == [("stop_marker", "ends_early")]
    assert [item.codes for item in user.take_interventions("retail-0001", 0)] == [("empty",)]
    assert [item.sample for item in user.interventions] == [2]


def test_personas_come_from_the_blueprint_with_their_manner() -> None:
    personas = personas_of(load_blueprint(REPO / "blueprints" / "retail.yaml"))
    assert sorted(personas) == ["busy_parent", "careful_retiree", "deal_hunter"]
    assert personas["busy_parent"] == (
        "Orders household basics between errands and wants problems fixed in one message. Manner: terse, impatient."
    )


def test_a_persona_missing_from_the_mapping_is_a_user_error_with_a_suggestion() -> None:
    user = PersonaUser(replay_client(Path("unused")), {"careful_retire": "Someone careful."})
    with pytest.raises(UserInputError, match=r"persona 'careful_retiree'.*did you mean 'careful_retire'"):
        user.system_prompt(RETAIL_TASK, writes_done=False)


def test_an_endpoint_failure_propagates_instead_of_becoming_a_scripted_reply() -> None:
    client = LLMClient(base_url=UNREACHABLE, model=MODEL, max_retries=0, timeout_s=5)
    user = PersonaUser(client, RETAIL_PERSONAS)
    turns = [Turn("user", OPENER), Turn("agent", ASKS_EMAIL)]
    with pytest.raises(InfrastructureError, match="no answer after 1 attempts"):
        asyncio.run(user.reply(RETAIL_TASK, turns, writes_done=False))
    assert user.interventions == []

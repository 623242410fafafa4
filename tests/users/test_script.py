"""The user's script: a reaction is due only when the agent's message meets it, is played once and in order, and
both simulators play it (the scripted one word for word, the model one told when it is due)."""

from __future__ import annotations

from pathlib import Path

from envforge.ir.tasks import Reaction, TaskSpec
from envforge.users import PersonaUser, ScriptedUser, Turn
from envforge.users.goal import goal_of
from envforge.users.script import due, meets, names_value, played, wanted
from tests.users.scenarios import RETAIL_PERSONAS, RETAIL_TASK, replay_client

CANCEL = "cancel my order (placed on: 2026-01-27) with reason: other"
LATER = "update the shipping address of my order placed on 14 March to my address in Taraport"
FOLLOW_UP = Reaction(
    when="done", say=f"Thanks! While I have you, could you also {LATER}?", requests=[LATER], calls_from=1
)
CREDIT = "grant me store credit"
PUSH_BACK = Reaction(
    when="refused",
    say="Really? Couldn't you make an exception just this once?",
    requests=[CREDIT],
    cue=["credit", "grant", "store credit"],
)
OFFER = Reaction(when="offered", say="Fine, I'll take $50.00. Go ahead.", cue=["50.0"])


def scripted(*reactions: Reaction, requests: tuple[str, ...] = (CANCEL,)) -> TaskSpec:
    scenario = RETAIL_TASK.scenario.model_copy(update={"requests": list(requests), "script": list(reactions)})
    return RETAIL_TASK.model_copy(update={"scenario": scenario})


def talk(*agent: str, user: str = "Okay.") -> list[Turn]:
    """The opener, then each agent message answered by `user` but the last."""
    turns = [Turn("user", RETAIL_TASK.instruction)]
    for index, message in enumerate(agent):
        turns.append(Turn("agent", message))
        if index < len(agent) - 1:
            turns.append(Turn("user", user))
    return turns


def test_a_follow_up_is_due_once_the_agent_says_the_first_request_is_done() -> None:
    task = scripted(FOLLOW_UP, requests=(CANCEL, LATER))
    assert due(task, talk("Let me look up your order.")) is None
    assert due(task, talk("I have cancelled your order. Is there anything else I can help you with?")) == FOLLOW_UP
    reply = ScriptedUser().respond(task, talk("Your order has been cancelled."), writes_done=False)
    assert reply == FOLLOW_UP.say


def test_the_user_wants_a_follow_up_only_once_they_have_asked_for_it() -> None:
    task = scripted(FOLLOW_UP, requests=(CANCEL, LATER))
    before = talk("Let me look up your order.")
    assert wanted(task, before) == [CANCEL]
    assert goal_of(task, before).render() == CANCEL
    reply = ScriptedUser().respond(task, before, writes_done=False)
    assert "Taraport" not in reply
    after = talk("I have cancelled your order.", "Which address should I use?", user=FOLLOW_UP.say)
    assert played(task, after) == 1
    assert wanted(task, after) == [CANCEL, LATER]


def test_a_push_back_is_due_only_on_a_denial_of_the_refused_request() -> None:
    task = scripted(PUSH_BACK, requests=(CANCEL, CREDIT))
    assert due(task, talk("I can't find your order under that email.")) is None
    assert due(task, talk("I've granted the store credit.")) is None
    refused = "I'm sorry, I can't grant store credit: it is only for silver or gold customers."
    assert due(task, talk(refused)) == PUSH_BACK
    assert ScriptedUser().respond(task, talk(refused), writes_done=True) == PUSH_BACK.say


def test_a_push_back_is_played_once_and_then_the_user_gives_the_request_up() -> None:
    task = scripted(PUSH_BACK, requests=(CANCEL, CREDIT))
    refused = "I can't grant store credit to a bronze customer."
    turns = talk(refused, "I understand, but I still cannot grant the credit: the policy is firm.", user=PUSH_BACK.say)
    assert played(task, turns) == 1
    assert due(task, turns) is None
    assert wanted(task, turns) == [CANCEL]


def test_an_offer_is_taken_only_when_the_agent_proposes_its_values_and_asks() -> None:
    task = scripted(OFFER)
    assert due(task, talk("I can grant at most $20. Would you like that?")) is None
    assert due(task, talk("I have granted you $50.00 in store credit.")) is None
    assert due(task, talk("The most I can grant is $50. Would you like me to go ahead?")) == OFFER
    assert names_value("credit of 1,250.00 dollars", "1250")
    assert not names_value("credit of $500", "50")


def test_a_reaction_counts_as_played_however_the_user_worded_it() -> None:
    """A model user words its reaction in its own way: what counts is that the agent met it and the user answered."""
    task = scripted(PUSH_BACK, OFFER)
    turns = talk("I cannot grant that much credit.", "I could offer $50 instead. Shall I?", user="Hm, are you sure?")
    assert [meets(reaction, turns[1].content) for reaction in task.scenario.script] == [True, False]
    assert played(task, turns) == 1
    assert due(task, turns) == OFFER


def test_the_model_user_is_told_a_follow_up_only_when_it_is_due(tmp_path: Path) -> None:
    task = scripted(FOLLOW_UP, PUSH_BACK, requests=(CANCEL, LATER, CREDIT))
    user = PersonaUser(replay_client(tmp_path), RETAIL_PERSONAS)
    early = user.system_prompt(task, writes_done=False, turns=talk("Let me look that up."))
    assert "Taraport" not in early
    assert f"If the agent says it cannot {CREDIT}, push back once, like this: {PUSH_BACK.say}" in early
    now = user.system_prompt(task, writes_done=False, turns=talk("I have cancelled your order."))
    assert f"Your next message must say this, in your own words: {FOLLOW_UP.say}" in now

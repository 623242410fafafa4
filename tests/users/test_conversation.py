"""The user in the loop that trainers get (`envforge.users.conversation`), on real packages of every shipped domain:
a careful agent that plays the golden conversation passes every task; one that claims work it never did, or never
asks for what the user holds back, does not."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from envforge.ir.tasks import TaskSpec
from envforge.runtime.episode import EnvPackage, Episode, load_package
from envforge.runtime.opened_package import open_package
from envforge.users.conversation import Conversation
from envforge.users.goal import goal_of
from envforge.users.scripted import ScriptedUser
from tests.conftest import BLUEPRINTS
from tests.users.agent_turns import agent_turns

DOMAINS = sorted(path.stem for path in BLUEPRINTS)


async def _careful(package: EnvPackage, task: TaskSpec) -> Conversation:
    conversation = Conversation(Episode(package, task.id), ScriptedUser())
    for turn in agent_turns(package, task):
        for call in turn.calls:
            ok, result = conversation.episode.call(call.name, call.arguments)
            assert ok, (task.id, call.name, result)
        if await conversation.say(turn.text) is None:
            break
    return conversation


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_careful_agent_passes_every_task_with_the_user_in_the_loop(packages: dict[str, Path], domain: str) -> None:
    package = load_package(open_package(packages[domain]))
    asked = 0
    for task_id in package.task_ids:
        task = package.task(task_id)
        conversation = asyncio.run(_careful(package, task))
        verdict = conversation.finish()
        assert verdict.passed, (task_id, verdict.reasons)
        assert conversation.ended in ("solved", "answered"), (task_id, conversation.ended)
        assert conversation.opening()[1]["content"] == task.instruction
        if task.scenario.details or task.scenario.which:
            assert conversation.user_turns >= 1, task_id
            asked += 1
    assert asked, f"no {domain} task holds anything back"


def test_claiming_work_never_done_gets_a_push_back_and_fails(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["retail"]))
    task = next(package.task(t) for t in package.task_ids if package.task(t).kind == "write")
    conversation = Conversation(Episode(package, task.id), ScriptedUser())
    closing = agent_turns(package, task)[-1].text
    reply = asyncio.run(conversation.say(closing))
    assert reply is not None and conversation.ended is None
    assert goal_of(task, conversation.turns[:2]).render() in reply, reply
    verdict = conversation.finish()
    assert not verdict.passed and verdict.components["messages_true"] is False


def test_an_agent_that_never_asks_runs_out_of_user_turns(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["retail"]))
    task = next(package.task(t) for t in package.task_ids if package.task(t).scenario.details)
    conversation = Conversation(Episode(package, task.id), ScriptedUser(), max_user_turns=2)
    replies = [asyncio.run(conversation.say("Let me look into that for you.")) for _ in range(3)]
    assert replies[0] and replies[1] and replies[2] is None
    assert conversation.ended == "user_turn_limit" and conversation.user_turns == 2
    assert asyncio.run(conversation.say("Anything else?")) is None
    assert not conversation.finish().passed

"""The exchange that stands in for the user in single-turn exports: it gives exactly what the task held back,
the way the scripted user would, so that a trainer's prompt is solvable and a demonstration never guesses."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.ir.tasks import TaskSpec
from envforge.runtime.clarify import clarification, needed_hidden, values
from envforge.runtime.episode import load_package
from envforge.runtime.gym_env import ToolUseEnv
from envforge.runtime.opened_package import open_package
from envforge.runtime.provenance import provenance_violations
from envforge.runtime.session import Session
from envforge.users.base import Turn
from envforge.users.fields import mentions_value
from envforge.users.scripted import ScriptedUser
from tests.conftest import BLUEPRINTS

DOMAINS = [path.stem for path in BLUEPRINTS]


def held_back(task: TaskSpec) -> list[str]:
    """The texts the user holds back that the task needs."""
    scenario = task.scenario
    hidden = [text for field in needed_hidden(task) for text in values(scenario.hidden[field])]
    return (
        hidden + [text for value in scenario.details.values() for text in values(value)] + list(scenario.which.values())
    )


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_trainer_prompt_says_everything_the_oracle_takes_from_the_user(
    packages: dict[str, Path], domain: str
) -> None:
    """Told only what the trainer prompt's user messages say, every oracle argument still has a source."""
    package = load_package(open_package(packages[domain]))
    session = Session(package.env)
    rules = [policy.text for policy in package.env.blueprint.policies]
    clock = package.env.blueprint.clock.date()
    problems: list[str] = []
    exchanges = 0
    for task_id in package.task_ids:
        task = package.task(task_id)
        said = " ".join(m["content"] for m in package.trainer_prompt(task_id) if m["role"] == "user")
        exchanges += said != task.instruction
        told_only = task.model_copy(
            update={
                "instruction": said,
                "scenario": task.scenario.model_copy(update={"hidden": {}, "details": {}}),
            }
        )
        session.act_for(task.scenario.person)
        session.reset()
        results = [session.call_tool(call.name, call.arguments)[1] for call in task.oracle]
        problems += provenance_violations(told_only, results, clock, rules)
        assert all(mentions_value(said, text) for text in held_back(task)), task_id
    assert problems == []
    assert exchanges > 0, f"no {domain} task holds anything back"


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_scripted_user_asked_the_same_question_gives_the_same_facts(packages: dict[str, Path], domain: str) -> None:
    package = load_package(open_package(packages[domain]))
    user = ScriptedUser()
    for task_id in package.task_ids:
        task = package.task(task_id)
        exchange = clarification(task, everything=True)
        if not exchange:
            assert not held_back(task), task_id
            continue
        question, answer = exchange
        assert (question["role"], answer["role"]) == ("assistant", "user")
        reply = user.respond(
            task, [Turn("user", task.instruction), Turn("agent", question["content"])], writes_done=False
        )
        for text in held_back(task):
            assert mentions_value(answer["content"], text), (task_id, text)
            assert mentions_value(reply, text), (task_id, text, reply)


def test_a_task_that_holds_nothing_back_gets_no_exchange(retail_package: Path) -> None:
    package = load_package(open_package(retail_package))
    task = next(
        package.task(t)
        for t in package.task_ids
        if not clarification(package.task(t), everything=True) and not package.task(t).scenario.script
    )
    assert package.trainer_prompt(task.id) == package.prompt(task.id)


def test_the_exchange_names_what_is_asked_in_plain_words(packages: dict[str, Path]) -> None:
    """On the first task (domains in name order) whose user names a row of theirs vaguely, as a draw decides."""
    opened = [load_package(open_package(packages[domain])) for domain in sorted(packages)]
    task = next(p.task(t) for p in opened for t in p.task_ids if p.task(t).scenario.which)
    question, answer = clarification(task)
    entity, description = next(iter(task.scenario.which.items()))
    assert f"which {entity.replace('_', ' ')} you mean" in question["content"]
    assert answer["content"].startswith("Sure: ") and f"I mean {description}" in answer["content"]


def test_the_gym_observation_carries_the_users_answer(retail_package: Path) -> None:
    """Gymnasium has no user turn: the reset observation is the request, then what the user gives when asked."""
    package = load_package(open_package(retail_package))
    task = next(package.task(t) for t in package.task_ids if clarification(package.task(t)))
    env = ToolUseEnv(retail_package)
    observation, info = env.reset(options={"task_id": task.id})
    question, answer = clarification(task)
    assert observation == f"{task.instruction}\n\n{answer['content']}"
    assert info["messages"] == package.trainer_prompt(task.id)
    assert env.log[1] == f"agent: {question['content']}"

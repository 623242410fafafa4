"""Every task of every shipped domain through the real rollout engine: the scripted user and an agent that
asks for what the user holds back before it acts, served over real HTTP (see endpoint.py for why scripted).

The agent may make the oracle's calls only once the user has said every held-back detail and which row they
mean; the scripted user says them only when asked. So a task passes only if what it needs from the user
can be had by asking, and cannot be had without.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from envforge.ir.tasks import TaskSpec
from envforge.llm import LLMClient, ResponseCache
from envforge.rollouts.episode import EpisodeRunner, RolloutConfig
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.users.base import Turn
from envforge.users.fields import mentions_value
from envforge.users.scripted import ScriptedUser
from tests.conftest import BLUEPRINTS, DefaultPackages, slow_domains
from tests.rollouts.endpoint import Agent, say, serve, tool_call, tool_results

DOMAINS = [path.stem for path in BLUEPRINTS]
STILL_MISSING = "I still need those details before I can go on."


def _question(task: TaskSpec) -> str:
    which = [f"Which {entity.replace('_', ' ')} do you mean?" for entity in task.scenario.which]
    names = [name.removeprefix("new_").replace("_", " ") for name in task.scenario.details]
    details = [f"Could you tell me the {', '.join(names)}?"] if names else []
    return " ".join([*which, *details])


def _told(task: TaskSpec, said: str) -> bool:
    values = [str(value) for value in task.scenario.details.values()] + list(task.scenario.which.values())
    return all(mentions_value(said, value) for value in values)


def careful_agent(package: EnvPackage, asked: dict[str, str]) -> Agent:
    """Asks first when the task holds something back (recording the user's answer in `asked`), then plays the
    oracle, then tells the user what it did and could not do, or the answer."""

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        task = next(t for t in package.tasks.values() if t.instruction == messages[1]["content"])
        users = [message["content"] for message in messages if message["role"] == "user"]
        if task.scenario.details or task.scenario.which:
            if len(users) == 1:
                return say(_question(task))
            asked[task.id] = users[1]
            if not _told(task, users[1]):
                return say(STILL_MISSING)
        done = tool_results(messages)
        if done < len(task.oracle):
            return tool_call(task.oracle[done].name, task.oracle[done].arguments, call_id=f"o{done}")
        return say(package.golden_message(task.id))

    return agent


async def _run_all(package: EnvPackage, agent: Agent, folder: Path) -> dict[str, str]:
    outcomes: dict[str, str] = {}
    with serve(agent) as (url, _):
        client = LLMClient(url, "scripted", cache=ResponseCache(folder, "off"), backoff_s=0)
        runner = EpisodeRunner(package, client, ScriptedUser(), RolloutConfig())
        try:
            for task_id in package.task_ids:
                trajectory = await runner.run(task_id)
                outcomes[task_id] = trajectory.outcome
        finally:
            await client.close()
    return outcomes


@pytest.mark.parametrize("domain", DOMAINS)
def test_an_agent_that_asks_for_what_is_held_back_passes_every_task(
    packages: dict[str, Path], domain: str, tmp_path: Path
) -> None:
    package = load_package(open_package(packages[domain]))
    asked: dict[str, str] = {}
    outcomes = asyncio.run(_run_all(package, careful_agent(package, asked), tmp_path))
    failed = {task_id: outcome for task_id, outcome in outcomes.items() if outcome != "passed"}
    assert not failed, failed
    holding = [task for task in package.tasks.values() if task.scenario.details or task.scenario.which]
    assert holding, f"no {domain} task holds anything back"
    assert {task.id for task in holding} == set(asked)
    assert all(_told(task, asked[task.id]) for task in holding)


def test_an_agent_that_never_asks_cannot_learn_what_is_held_back(packages: dict[str, Path], tmp_path: Path) -> None:
    """The user gives nothing held back without being asked: an agent that only nudges never hears it."""
    package = load_package(open_package(packages["retail"]))
    task = next(t for t in package.tasks.values() if t.scenario.details)
    turns = [task.instruction, "Let me check that for you.", "Okay, one moment please."]
    history = [Turn("user", turns[0])]
    for agent_says in turns[1:]:
        history.append(Turn("agent", agent_says))
        reply = ScriptedUser().respond(task, history, writes_done=False)
        assert not _told(task, reply), reply
        history.append(Turn("user", reply))


@pytest.mark.slow
@pytest.mark.parametrize("domain", slow_domains("careful_agent"))
def test_the_same_holds_for_every_task_of_a_default_package(
    default_packages: DefaultPackages, domain: str, tmp_path: Path
) -> None:
    """The full default package (150 tasks): every task passes through `envforge rollout`'s engine offline."""
    package = load_package(open_package(default_packages[domain]))
    asked: dict[str, str] = {}
    outcomes = asyncio.run(_run_all(package, careful_agent(package, asked), tmp_path))
    assert len(outcomes) == 150
    assert {task_id: outcome for task_id, outcome in outcomes.items() if outcome != "passed"} == {}

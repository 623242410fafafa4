"""Every task of every shipped domain through the real rollout engine: the scripted user and an agent that
asks for what the user holds back before it acts, served over real HTTP (see endpoint.py for why scripted).

The agent plays the golden conversation: it asks for the held-back details and rows, and the test checks that the
user then said every one; the scripted user says them only when asked. A follow-up comes only once the agent
reports the first request done, an offer is taken only once proposed, and a push back on a refusal keeps the
episode going until the agent holds. So a task passes only if what it needs from the user can be had by asking
and its script can be played through.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.llm import LLMClient, ResponseCache
from envforge.rollouts.episode import EpisodeRunner, RolloutConfig
from envforge.runtime.clarify import clarification
from envforge.runtime.dialogue import Said, Step, golden_dialogue
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.users.base import Turn
from envforge.users.fields import mentions_value
from envforge.users.scripted import ScriptedUser
from tests.conftest import BLUEPRINTS, DefaultPackages, slow_domains
from tests.rollouts.endpoint import Agent, say, serve, tool_call, tool_results

DOMAINS = [path.stem for path in BLUEPRINTS]
STILL_DONE = "That is everything I can do for you today."


def _told(task: TaskSpec, said: str) -> bool:
    values = [str(value) for value in task.scenario.details.values()] + list(task.scenario.which.values())
    return all(mentions_value(said, value) for value in values)


def _segments(steps: list[Step]) -> list[list[Step]]:
    """The agent's turns of the golden conversation: the steps between two user messages."""
    segments: list[list[Step]] = [[]]
    for step in steps:
        if isinstance(step, Said) and step.role == "user":
            segments.append([])
        else:
            segments[-1].append(step)
    return segments


def _questions(task: TaskSpec) -> list[Said]:
    """The agent's questions for what the user holds back: at the start, and after each follow-up."""
    later = [reaction for reaction in task.scenario.script if reaction.when == "done"]
    exchanges = [clarification(task), *(clarification(task, reaction) for reaction in later)]
    return [Said("agent", exchange[0]["content"]) for exchange in exchanges if exchange]


def careful_agent(package: EnvPackage, asked: dict[str, str]) -> Agent:
    """Plays the task's golden conversation (`golden_dialogue`) whatever the user's words: asks first for what the
    user holds back (recording the answers in `asked`), makes the oracle's calls as each request comes, reports what
    it did before a follow-up, proposes an offer before taking it, and holds a refusal when the user pushes back."""

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        task = next(t for t in package.tasks.values() if t.instruction == messages[1]["content"])
        segments = _segments(golden_dialogue(task, package.env.blueprint))
        users = [index for index, message in enumerate(messages) if message["role"] == "user"]
        turn = len(users) - 1
        if turn >= len(segments):
            return say(STILL_DONE)
        calls = [step for step in segments[turn] if isinstance(step, ToolCall)]
        done = tool_results(messages[users[-1] :])
        if done == 0 and turn > 0 and segments[turn - 1][-1] in _questions(task):
            asked[task.id] = f"{asked.get(task.id, '')} {messages[users[-1]]['content']}"
        if done < len(calls):
            return tool_call(calls[done].name, calls[done].arguments, call_id=f"o{turn}-{done}")
        text = segments[turn][-1]
        assert isinstance(text, Said)
        return say(text.text)

    return agent


async def _run_all(package: EnvPackage, agent: Agent, folder: Path) -> dict[str, str]:
    outcomes: dict[str, str] = {}
    with serve(agent) as (url, _):
        client = LLMClient(url, "scripted", cache=ResponseCache(folder, "off"))
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
    assert {task.id for task in holding} <= set(asked)
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

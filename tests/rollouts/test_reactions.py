"""Users who react, through the real rollout engine (scripted agents over real HTTP, see endpoint.py): the
episode goes on while a reaction is due, an agent that gives in to a push back or ignores a follow-up fails, and
the demonstrations exported for training play the same script."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from envforge.exporters.trajectories import oracle_trajectory
from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.llm import LLMClient, ResponseCache
from envforge.rollouts.episode import EpisodeRunner, RolloutConfig
from envforge.rollouts.trajectory import Trajectory
from envforge.runtime.claims.report import report_message
from envforge.runtime.dialogue import Said, golden_dialogue, hold_message
from envforge.runtime.episode import OFFER_DECLINED, OFFER_TAKEN, EnvPackage, Episode, load_package
from envforge.runtime.opened_package import open_package
from envforge.users.scripted import ScriptedUser
from tests.rollouts.endpoint import Agent, say, serve, tool_call, tool_results
from tests.rollouts.test_careful_agent import careful_agent


def _run(package: EnvPackage, agent: Agent, task_id: str, folder: Path) -> Trajectory:
    async def run() -> Trajectory:
        with serve(agent) as (url, _):
            client = LLMClient(url, "scripted", cache=ResponseCache(folder, "off"))
            try:
                return await EpisodeRunner(package, client, ScriptedUser(), RolloutConfig()).run(task_id)
            finally:
                await client.close()

    return asyncio.run(run())


def _first(package: EnvPackage, when: str, *, question: bool = False, plain: bool = True) -> TaskSpec:
    """The first task whose script opens with `when`; `plain`: one whose request holds back no detail or row."""
    return next(
        task
        for task in package.tasks.values()
        if task.scenario.script
        and task.scenario.script[0].when == when
        and (task.expected_answer is not None) == question
        and not (plain and (task.scenario.details or task.scenario.which))
    )


def _users(trajectory: Trajectory) -> list[str]:
    return [str(message["content"]) for message in trajectory.messages if message["role"] == "user"]


def test_a_refusal_episode_goes_on_until_the_agent_has_held_against_the_push_back(
    retail_package: Path, tmp_path: Path
) -> None:
    package = load_package(open_package(retail_package))
    task = _first(package, "refused")
    trajectory = _run(package, careful_agent(package, {}), task.id, tmp_path)
    assert trajectory.outcome == "passed"
    assert _users(trajectory)[-1] == task.scenario.script[0].say
    assert trajectory.messages[-1]["content"] == hold_message(task, package.env.blueprint)


def test_an_agent_that_gives_in_to_the_push_back_fails(retail_package: Path, tmp_path: Path) -> None:
    """It refuses first as the golden run does, then makes the forbidden write once the user pushes back."""
    package = load_package(open_package(retail_package))
    task = _first(package, "refused")
    forbidden = task.forbidden[0]
    golden = careful_agent(package, {})

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        users = [message for message in messages if message["role"] == "user"]
        if len(users) < 2:
            return golden(messages)
        if tool_results(messages[messages.index(users[-1]) :]) == 0:
            return tool_call(forbidden.name, forbidden.arguments, call_id="caved")
        return say("Alright, just this once: it's done.")

    trajectory = _run(package, agent, task.id, tmp_path)
    assert trajectory.outcome == "failed"
    assert [call.name for call in trajectory.calls][-1] == forbidden.name


def _declined(package: EnvPackage) -> TaskSpec:
    return next(
        task
        for task in package.tasks.values()
        if task.scenario.script and task.scenario.script[0].when == "offered" and not task.scenario.script[0].takes
    )


def test_an_offer_the_user_turns_down_leaves_the_request_undone(retail_package: Path, tmp_path: Path) -> None:
    """The agent does the allowed request, proposes what the policy offers for the other, and the user declines:
    the episode goes on until then, and the run that does nothing more passes."""
    package = load_package(open_package(retail_package))
    task = _declined(package)
    reaction = task.scenario.script[0]
    assert reaction.say not in task.instruction and reaction.offer
    trajectory = _run(package, careful_agent(package, {}), task.id, tmp_path)
    assert trajectory.outcome == "passed"
    assert reaction.say in _users(trajectory)
    assert task.forbidden[0].name not in [call.name for call in trajectory.calls]


def test_an_agent_that_grants_the_offer_without_proposing_it_fails_where_the_user_would_decline(
    retail_package: Path, tmp_path: Path
) -> None:
    """It does the allowed request, then makes the offered write straight away and reports it: the user never
    had the chance to say no, and the verdict fails it on the state."""
    package = load_package(open_package(retail_package))
    task = _declined(package)
    asked = task.forbidden[0]
    calls = [*task.oracle, ToolCall(name=asked.name, arguments={**asked.arguments, **task.scenario.script[0].offer})]

    def grants(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        done = tool_results(messages)
        if done < len(calls):
            return tool_call(calls[done].name, calls[done].arguments, call_id=f"c{done}")
        return say(f"{report_message(task, package.env.blueprint)} I also applied what the policy allows instead.")

    trajectory = _run(package, grants, task.id, tmp_path)
    assert trajectory.outcome == "failed"
    assert trajectory.verdict is not None and not trajectory.verdict.components["no_unexpected_changes"]


def test_a_trainer_prompt_says_what_the_user_would_answer_an_offer_as_a_condition(retail_package: Path) -> None:
    """With no user to answer a proposal (TRL, verl, the Gymnasium wheel), the request carries the answer as a
    condition, without the amount the agent must work out: the policy says to act on an offer once accepted."""
    package = load_package(open_package(retail_package))
    declined = _declined(package)
    taken = next(
        t
        for t in package.tasks.values()
        if [r.when for r in t.scenario.script] == ["offered"] and t is not declined and t.scenario.script[0].takes
    )
    for task, condition in ((declined, OFFER_DECLINED), (taken, OFFER_TAKEN)):
        prompt = package.trainer_prompt(task.id)
        assert prompt[-1]["content"].endswith(condition), task.id
        assert not any(value in condition for value in task.scenario.script[0].cue)


def _changing(packages: dict[str, Path]) -> tuple[EnvPackage, TaskSpec]:
    """The first task (domains in name order) whose user changes their mind and whose request holds nothing back,
    so an agent can propose the value at once."""
    for domain in sorted(packages):
        package = load_package(open_package(packages[domain]))
        for task in package.tasks.values():
            script, scenario = task.scenario.script, task.scenario
            if script and script[0].changes and not (scenario.details or scenario.which):
                return package, task
    raise AssertionError("no package has a change of mind on a request that holds nothing back")


def test_a_change_of_mind_after_the_report_ends_on_the_new_value(packages: dict[str, Path], tmp_path: Path) -> None:
    package, task = _changing(packages)
    change = task.scenario.script[0]
    assert change.say not in task.instruction and change.cue
    trajectory = _run(package, careful_agent(package, {}), task.id, tmp_path)
    assert trajectory.outcome == "passed"
    assert change.say in _users(trajectory)
    writes = [call.arguments for call in trajectory.calls if call.name == task.oracle[-1].name]
    assert writes == [call.arguments for call in task.oracle[-2:]]


def test_an_agent_that_confirms_first_hears_the_change_before_any_write_and_passes(
    packages: dict[str, Path], tmp_path: Path
) -> None:
    """It proposes the first value, the user changes it, and it writes only the second: the write taken back is
    never made, and the verdict does not ask for it."""
    package, task = _changing(packages)
    change = task.scenario.script[0]
    assert change.calls_from is not None
    lookups, second = task.oracle[: change.calls_from - 1], task.oracle[-1]
    closing = package.golden_message(task.id)

    def confirms(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        users = [index for index, message in enumerate(messages) if message["role"] == "user"]
        done = tool_results(messages)
        if done < len(lookups):
            return tool_call(lookups[done].name, lookups[done].arguments, call_id=f"l{done}")
        if len(users) == 1:
            return say(f"Just to confirm before I change anything: I'll make it {change.cue[0]}. Shall I go ahead?")
        if tool_results(messages[users[-1] :]) == 0:
            return tool_call(second.name, second.arguments, call_id="second")
        return say(closing)

    trajectory = _run(package, confirms, task.id, tmp_path)
    assert _users(trajectory)[1] == change.say
    assert [call.arguments for call in trajectory.calls if call.name == second.name] == [second.arguments]
    assert trajectory.outcome == "passed"


def test_an_agent_that_ignores_the_change_of_mind_fails(packages: dict[str, Path], tmp_path: Path) -> None:
    package, task = _changing(packages)
    change = task.scenario.script[0]
    first = task.oracle[: change.calls_from]

    def keeps(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        done = tool_results(messages)
        if done < len(first):
            return tool_call(first[done].name, first[done].arguments, call_id=f"c{done}")
        return say(package.golden_message(task.id))

    trajectory = _run(package, keeps, task.id, tmp_path)
    assert change.say in _users(trajectory)
    assert trajectory.outcome == "failed"


def test_a_follow_up_comes_once_the_first_request_is_reported_and_must_be_done(
    retail_package: Path, tmp_path: Path
) -> None:
    package = load_package(open_package(retail_package))
    task = _first(package, "done")
    follow_up = task.scenario.script[0]
    assert follow_up.say not in task.instruction
    trajectory = _run(package, careful_agent(package, {}), task.id, tmp_path)
    assert trajectory.outcome == "passed"
    assert _users(trajectory)[-1] == follow_up.say
    # An agent that stops at the first request hears the follow-up and, ignoring it, fails.
    first = task.oracle[: follow_up.calls_from]

    def stops(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        done = tool_results(messages)
        if done < len(first):
            return tool_call(first[done].name, first[done].arguments, call_id=f"c{done}")
        return say("I have taken care of that. Is there anything else I can help you with?")

    stopped = _run(package, stops, task.id, tmp_path / "stops")
    assert stopped.outcome == "failed"
    assert follow_up.say in _users(stopped)


def test_a_question_after_a_write_is_answered_after_the_write(retail_package: Path, tmp_path: Path) -> None:
    package = load_package(open_package(retail_package))
    task = _first(package, "done", question=True, plain=False)
    trajectory = _run(package, careful_agent(package, {}), task.id, tmp_path)
    assert trajectory.outcome == "passed"
    assert trajectory.verdict is not None and trajectory.verdict.components["answer_correct"]
    assert str(task.expected_answer) in str(trajectory.messages[-1]["content"])


def test_the_demonstration_plays_the_script_and_the_trainer_prompt_says_the_follow_up_at_once(
    retail_package: Path,
) -> None:
    package = load_package(open_package(retail_package))
    task = _first(package, "done")
    follow_up = task.scenario.script[0].say
    trajectory = oracle_trajectory(package, task.id)
    said = [message for message in trajectory.messages if message["role"] in ("user", "assistant")]
    users = [message["content"] for message in said if message["role"] == "user"]
    assert users[0] == task.instruction and users[-1] == follow_up
    steps = golden_dialogue(task, package.env.blueprint)
    calls = [step for step in steps if isinstance(step, ToolCall)]
    assert calls == task.oracle and isinstance(steps[-1], Said)
    made = [json.loads(call["function"]["arguments"]) for message in said for call in message.get("tool_calls", [])]
    assert made == [call.arguments for call in task.oracle]
    assert trajectory.reward == 1.0
    prompt = package.trainer_prompt(task.id)
    assert prompt[-1]["role"] == "user" and prompt[-1]["content"].endswith(f". {follow_up}")


def test_a_question_after_a_write_is_judged_on_the_answer_not_on_the_report_beside_it(
    packages: dict[str, Path],
) -> None:
    """The report's participle (`I have paid your fine.`) may be another record's value (`paid`): it is no value
    stated. A competing value stated as the answer still fails."""
    judged = 0
    for path in packages.values():
        package = load_package(open_package(path))
        for task in package.tasks.values():
            spec = task.verifier.answer
            if task.kind == "read" or spec is None or not spec.competitors:
                continue
            episode = Episode(package, task.id)
            for call in task.oracle:
                episode.call(call.name, call.arguments)
            report = report_message(task, package.env.blueprint)
            history = episode.session.history()
            right = Transcript(calls=task.oracle, answer=package.golden_message(task.id))
            wrong = Transcript(calls=task.oracle, answer=f"{report} The answer is {spec.competitors[0]}.")
            assert package.verify(task.id, history, right).passed, task.id
            assert not package.verify(task.id, history, wrong).components["answer_correct"], task.id
            judged += 1
    assert judged > 0

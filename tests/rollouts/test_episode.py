"""The rollout engine against a scripted agent behind a real HTTP endpoint (see endpoint.py for why scripted)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from envforge.ir.tasks import TaskSpec
from envforge.llm import LLMClient, ResponseCache
from envforge.rollouts.episode import EpisodeRunner, RolloutConfig, request_seed
from envforge.rollouts.runner import RolloutPlan, run_rollouts
from envforge.rollouts.trajectory import Trajectory
from envforge.runtime.episode import EnvPackage
from envforge.users.scripted import ScriptedUser
from tests.rollouts.endpoint import Agent, free_port, say, serve, tool_call, tool_results

WRITE_TASK = "retail-0001"


def read_task(package: EnvPackage) -> TaskSpec:
    return next(task for task in package.tasks.values() if task.kind == "read")


def golden_agent(task: TaskSpec, final: str = "All done: your request is complete.") -> Agent:
    """Makes the task's golden calls one by one, then reports back."""

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        done = tool_results(messages)
        if done < len(task.oracle):
            call = task.oracle[done]
            return tool_call(call.name, call.arguments, call_id=f"o{done}")
        return say(final)

    return agent


def run_one(package: EnvPackage, agent: Any, task_id: str, tmp_path: Path, **config: Any) -> Trajectory:
    async def go() -> Trajectory:
        with serve(agent) as (url, _):
            client = LLMClient(url, "scripted", cache=ResponseCache(tmp_path / "cache", "off"))
            runner = EpisodeRunner(package, client, ScriptedUser(), RolloutConfig(**config))
            try:
                return await runner.run(task_id)
            finally:
                await client.close()

    return asyncio.run(go())


def test_an_agent_that_makes_the_golden_calls_passes_and_the_episode_ends_as_solved(
    showcase: EnvPackage, tmp_path: Path
) -> None:
    task = showcase.task(WRITE_TASK)
    trajectory = run_one(showcase, golden_agent(task), WRITE_TASK, tmp_path)
    assert trajectory.outcome == "passed"
    assert trajectory.ended == "solved"
    assert trajectory.verdict is not None and trajectory.verdict.reward == 1.0
    assert trajectory.failure is None
    assert [call.name for call in trajectory.calls] == [call.name for call in task.oracle]
    assert all(call.ok for call in trajectory.calls)
    assert trajectory.simulator == ScriptedUser().version
    assert trajectory.tokens.requests == len(task.oracle) + 1
    assert trajectory.tokens.prompt == 100 * trajectory.tokens.requests
    assert trajectory.messages[0] == {"role": "system", "content": showcase.env.policy}
    assert trajectory.messages[1] == {"role": "user", "content": task.instruction}
    assert trajectory.timings.env_s > 0
    assert trajectory.initial_state


def test_broken_argument_json_goes_back_as_a_tool_error_and_is_not_resent(showcase: EnvPackage, tmp_path: Path) -> None:
    task = showcase.task(WRITE_TASK)
    oracle = golden_agent(task)
    seen: list[list[dict[str, Any]]] = []

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        seen.append(messages)
        if len(seen) == 1:
            return tool_call(task.oracle[0].name, '{"email": "broken', call_id="bad")
        # The broken call and its error are in the history: shift the oracle by one tool result.
        return oracle(messages[:2] + messages[4:])

    trajectory = run_one(showcase, agent, WRITE_TASK, tmp_path)
    assert trajectory.format_errors == 1
    assert trajectory.outcome == "passed"
    resent = seen[1][2]
    assert resent["tool_calls"][0]["function"]["arguments"] == "{}"
    error = json.loads(seen[1][3]["content"])["error"]
    assert error["code"] == "malformed_call"
    assert "not valid JSON" in error["message"]
    assert seen[1][3]["tool_call_id"] == "bad"


def test_calls_left_in_the_text_are_run_and_unknown_tools_come_back_as_errors(
    showcase: EnvPackage, tmp_path: Path
) -> None:
    task = showcase.task(WRITE_TASK)
    first = task.oracle[0]

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        done = tool_results(messages)
        if done == 0:
            body = json.dumps({"name": first.name, "arguments": first.arguments})
            return say(f"Let me look you up.\n<tool_call>\n{body}\n</tool_call>")
        if done == 1:
            return tool_call("teleport_order", {"order_id": "x"}, call_id="u")
        return say("I could not finish this.")

    trajectory = run_one(showcase, agent, WRITE_TASK, tmp_path, max_user_turns=1)
    assert trajectory.calls[0].name == first.name and trajectory.calls[0].ok
    assert trajectory.calls[1].error_code == "unknown_tool"
    assert trajectory.format_errors == 0
    assert trajectory.tool_errors == 1
    assert trajectory.messages[2]["content"] == "Let me look you up."
    assert trajectory.outcome == "failed"
    assert trajectory.failure is not None and trajectory.failure.cls == "model"
    assert trajectory.failure.reason == "gave_up"


def test_an_agent_whose_calls_cannot_be_read_fails_on_format(showcase: EnvPackage, tmp_path: Path) -> None:
    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        if tool_results(messages) < 2:
            return say('<tool_call>{"name": "find_customer_by_email", "arguments": {"email": }</tool_call>')
        return say("Sorry, I cannot do that.")

    trajectory = run_one(showcase, agent, WRITE_TASK, tmp_path, max_user_turns=0)
    assert trajectory.format_errors == 2
    assert trajectory.calls == []
    assert trajectory.failure is not None
    assert (trajectory.failure.cls, trajectory.failure.reason) == ("format", "unparseable_calls")
    assert trajectory.verdict is not None and trajectory.verdict.reward == 0.0


def test_saying_goodbye_before_the_writes_does_not_end_the_episode(showcase: EnvPackage, tmp_path: Path) -> None:
    """The harness, not the simulator or the agent's farewell, decides the end: the state must be right."""
    task = showcase.task(WRITE_TASK)
    oracle = golden_agent(task)

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        farewells = sum(1 for m in messages if m["role"] == "assistant" and m.get("content") == "Goodbye!")
        if farewells < 2:
            return say("Goodbye!")
        return oracle([m for m in messages if m.get("content") != "Goodbye!"])

    trajectory = run_one(showcase, agent, WRITE_TASK, tmp_path, max_user_turns=3)
    assert trajectory.user_turns == 2
    assert trajectory.outcome == "passed"
    user_replies = [m["content"] for m in trajectory.messages[2:] if m["role"] == "user"]
    assert len(user_replies) == 2 and all(reply.strip() for reply in user_replies)
    assert task.instruction not in user_replies


def test_a_write_task_left_undone_ends_at_the_user_turn_limit_as_gave_up(showcase: EnvPackage, tmp_path: Path) -> None:
    trajectory = run_one(
        showcase, lambda messages: say("Your order is cancelled."), WRITE_TASK, tmp_path, max_user_turns=2
    )
    assert trajectory.ended == "user_turn_limit"
    assert trajectory.user_turns == 2
    assert trajectory.failure is not None and (trajectory.failure.cls, trajectory.failure.reason) == (
        "model",
        "gave_up",
    )


def test_a_question_task_ends_on_the_answer_and_judges_it(showcase: EnvPackage, tmp_path: Path) -> None:
    task = read_task(showcase)
    right = run_one(showcase, golden_agent(task, f"It is {task.expected_answer}."), task.id, tmp_path)
    assert (right.outcome, right.ended, right.answer) == ("passed", "solved", f"It is {task.expected_answer}.")
    wrong = run_one(showcase, golden_agent(task, "It is 123456789."), task.id, tmp_path)
    assert (wrong.outcome, wrong.ended) == ("failed", "answered")
    assert wrong.failure is not None and wrong.failure.reason == "wrong_answer"


def test_a_question_to_the_user_gets_a_reply_instead_of_ending_a_question_task(
    showcase: EnvPackage, tmp_path: Path
) -> None:
    task = read_task(showcase)
    oracle = golden_agent(task, f"The answer is {task.expected_answer}.")

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        if not any(m["role"] == "assistant" and m.get("content") == "Could you tell me your email?" for m in messages):
            return say("Could you tell me your email?")
        return oracle([m for m in messages if m.get("content") != "Could you tell me your email?" and m != messages[3]])

    trajectory = run_one(showcase, agent, task.id, tmp_path)
    assert trajectory.user_turns == 1
    assert {**task.scenario.known, **task.scenario.hidden}["email"] in trajectory.messages[3]["content"]
    assert trajectory.outcome == "passed"


def test_server_errors_are_retried_and_never_scored(showcase: EnvPackage, tmp_path: Path) -> None:
    async def go() -> tuple[list[Trajectory], int]:
        with serve(lambda messages: 500) as (url, endpoint):
            client = LLMClient(url, "scripted", cache=ResponseCache(tmp_path, "off"), max_retries=1)
            plan = RolloutPlan(task_ids=[WRITE_TASK], k=2, infra_retries=1)
            try:
                return await run_rollouts(showcase, client, ScriptedUser(), plan), endpoint.requests
            finally:
                await client.close()

    trajectories, requests = asyncio.run(go())
    assert [t.sample for t in trajectories] == [0, 1]
    assert all(t.outcome == "infrastructure" and t.verdict is None and t.reward is None for t in trajectories)
    assert all(t.attempt == 1 for t in trajectories)
    assert all(t.failure is not None and t.failure.cls == "infrastructure" for t in trajectories)
    assert trajectories[0].failure is not None and trajectories[0].failure.reason == "http_error"
    assert requests == 2 * 2 * 2  # samples x episode attempts x request attempts


def test_a_dead_endpoint_is_an_infrastructure_failure(showcase: EnvPackage, tmp_path: Path) -> None:
    async def go() -> Trajectory:
        client = LLMClient(
            f"http://127.0.0.1:{free_port()}/v1", "m", cache=ResponseCache(tmp_path, "off"), max_retries=0
        )
        try:
            return await EpisodeRunner(showcase, client, ScriptedUser()).run(WRITE_TASK)
        finally:
            await client.close()

    trajectory = asyncio.run(go())
    assert trajectory.outcome == "infrastructure"
    assert trajectory.failure is not None and trajectory.failure.reason == "connection"


def test_a_context_overflow_ends_the_episode_as_the_models_failure(showcase: EnvPackage, tmp_path: Path) -> None:
    task = showcase.task(WRITE_TASK)
    oracle = golden_agent(task)

    def agent(messages: list[dict[str, Any]]) -> dict[str, Any] | int:
        return 400 if tool_results(messages) == 1 else oracle(messages)

    trajectory = run_one(showcase, agent, WRITE_TASK, tmp_path)
    assert trajectory.ended == "context_limit"
    assert trajectory.failure is not None and (trajectory.failure.cls, trajectory.failure.reason) == (
        "model",
        "context_limit",
    )


def test_the_turn_limit_stops_an_agent_that_never_stops_calling(showcase: EnvPackage, tmp_path: Path) -> None:
    task = showcase.task(WRITE_TASK)
    lookup = task.oracle[0]
    trajectory = run_one(
        showcase, lambda messages: tool_call(lookup.name, lookup.arguments), WRITE_TASK, tmp_path, max_turns=3
    )
    assert trajectory.ended == "turn_limit"
    assert len(trajectory.calls) == 3
    assert trajectory.failure is not None and trajectory.failure.reason == "turn_limit"


def test_a_rerun_is_served_from_the_cache_without_the_endpoint(showcase: EnvPackage, tmp_path: Path) -> None:
    task = showcase.task(WRITE_TASK)

    async def first() -> list[Trajectory]:
        with serve(golden_agent(task)) as (url, _):
            client = LLMClient(url, "scripted", cache=ResponseCache(tmp_path, "use"))
            try:
                return await run_rollouts(showcase, client, ScriptedUser(), RolloutPlan(task_ids=[WRITE_TASK], k=2))
            finally:
                await client.close()

    async def again() -> list[Trajectory]:
        client = LLMClient(f"http://127.0.0.1:{free_port()}/v1", "scripted", cache=ResponseCache(tmp_path, "replay"))
        return await run_rollouts(showcase, client, ScriptedUser(), RolloutPlan(task_ids=[WRITE_TASK], k=2))

    live = asyncio.run(first())
    cached = asyncio.run(again())
    assert [t.tokens.cached_requests for t in live] == [0, 0]
    assert [t.tokens.cached_requests for t in cached] == [t.tokens.requests for t in cached]
    assert [t.calls for t in cached] == [t.calls for t in live]
    assert [t.verdict for t in cached] == [t.verdict for t in live]
    # The two samples are separate requests, so the cache holds both.
    assert len(list(tmp_path.rglob("*.json"))) == sum(t.tokens.requests for t in live)
    assert live[0].sampling["seed"] is None


def test_per_request_seeds_differ_between_samples_and_repeat_between_runs() -> None:
    config = RolloutConfig(seed=7)
    assert request_seed(config, "t-1", 0) != request_seed(config, "t-1", 1)
    assert request_seed(config, "t-1", 0) == request_seed(RolloutConfig(seed=7), "t-1", 0)
    assert request_seed(RolloutConfig(), "t-1", 0) is None

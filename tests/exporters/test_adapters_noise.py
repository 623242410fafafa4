"""Noise through the trainer adapters, on real packages: TRL's environment classes from the exported wheel and
verl's token loop give each rollout the episode's tool noise, and an agent that retries what the noise asks it to
still earns reward 1; under user noise the user in the loop is the noisy one, with the turns recovering costs."""

from __future__ import annotations

import asyncio
import importlib
import json
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest

from envforge.adapters.trl import verifier_reward
from envforge.adapters.verl_loop import Generation, run_token_episode
from envforge.ir.noise import EXTRA_USER_TURNS, SHIPPED
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.users.conversation import MAX_USER_TURNS
from envforge.users.noise import NoisyUser
from envforge.users.scripted import ScriptedUser
from tests.exporters.test_adapters import CharTokenizer, _hermes
from tests.users.agent_turns import agent_turns


def _again(text: str) -> dict[str, Any] | None:
    """What a careful agent does with a tool's answer: the same call again, the next page, or nothing."""
    result = json.loads(text)
    error = result.get("error")
    if (isinstance(error, dict) and error.get("retryable")) or "warning" in result:
        return {}
    if "next_offset" in result:
        return {"offset": result["next_offset"]}
    return None


@pytest.mark.usefixtures("unpacked_wheels")
def test_trl_environments_meet_the_configured_noise_and_a_careful_agent_still_earns_1(
    packages: dict[str, Path], exports: Path
) -> None:
    module = importlib.import_module("envforge_env_retail.trl_env")
    noisy = type("NoisyRetail", (module.ENVIRONMENT,), {"noise": "tools@1.0"})
    package = load_package(open_package(packages["retail"]))
    rows = pq.read_table(exports / "trl" / "retail" / "train.parquet").to_pylist()
    environments, completions, retried = [], [], 0
    for row in rows:
        environment = noisy()
        environment.reset(**row)
        task = package.task(row["task_id"])
        for call in task.oracle:
            arguments = dict(call.arguments)
            while (change := _again(getattr(environment, call.name)(**arguments))) is not None:
                retried += 1
                arguments |= change
        environments.append(environment)
        completions.append([{"role": "assistant", "content": package.golden_message(task.id)}])
    assert verifier_reward(completions, environments) == [1.0] * len(rows)
    assert retried >= len(rows)

    talking = type("TalkingRetail", (module.ENVIRONMENT_WITH_USER,), {"noise": "user@1.0"})()
    talking.reset(**rows[0])
    conversation = talking._conversation
    assert isinstance(conversation.user, NoisyUser)
    assert conversation.max_user_turns == MAX_USER_TURNS + EXTRA_USER_TURNS


class CarefulModel:
    """Says the golden conversation's turns in order, but calls again (the same call, or the next page) while the
    last tool answer asks for that."""

    def __init__(self, tokenizer: CharTokenizer, script: list[tuple[str, dict[str, Any]] | str]) -> None:
        self.tokenizer = tokenizer
        self.script = script
        self.next = 0
        self.last_call: tuple[str, dict[str, Any]] | None = None
        self.recovered = 0

    async def generate(self, prompt_ids: list[int]) -> Generation:
        if self.last_call is not None:
            answer = self.tokenizer.decode(prompt_ids).rsplit("<tool_response>", 1)[1].split("</tool_response>")[0]
            change = _again(answer)
            if change is not None:
                self.recovered += 1
                self.last_call = (self.last_call[0], {**self.last_call[1], **change})
                return Generation(self.tokenizer.encode(_hermes(*self.last_call)))
        step = self.script[self.next]
        self.next += 1
        self.last_call = step if isinstance(step, tuple) else None
        return Generation(self.tokenizer.encode(_hermes(*step) if isinstance(step, tuple) else step))


def test_verl_token_loop_meets_tool_noise_and_a_careful_model_still_earns_1(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["retail"]))
    tokenizer = CharTokenizer()
    recovered = 0
    for task_id in package.task_ids[:10]:
        task = package.task(task_id)
        script: list[tuple[str, dict[str, Any]] | str] = []
        for turn in agent_turns(package, task):
            script += [(call.name, call.arguments) for call in turn.calls]
            script.append(turn.text)
        model = CarefulModel(tokenizer, script)
        drawn = SHIPPED["tools"].at(1.0).episode(f"{task_id}:0")
        episode = asyncio.run(
            run_token_episode(
                package,
                task_id,
                tokenizer,
                model.generate,
                user=ScriptedUser(),
                max_turns=len(script),  # what a clean run takes: each struck call allows one more turn
                max_response_tokens=10**7,
                noise=drawn,
            )
        )
        assert episode.verdict.reward == 1.0, (task_id, episode.verdict.reasons)
        assert model.next == len(script)
        recovered += model.recovered
    assert recovered >= 5

"""An OpenEnv environment of an environment package, served on OpenEnv's HTTP and WebSocket API.

    python -m envforge.adapters.openenv_env generated/showcase/retail --port 8000

A client (`EnvforgeClient` below, or OpenEnv's `GenericEnvClient` with plain dicts) opens a session on `/ws`.
`reset(task_id=...)`, or `reset(seed=n)` for task `n` of the sorted task ids (modulo their count), starts an
episode on that task that acts for the task's person, as the harness does.
Its observation's `messages` are the trainer prompt (`EnvPackage.trainer_prompt`): the policy, the user's request
and, where the task holds facts back, the agent's question and the scripted user's answer, as the TRL and verl
adapters give them, since no user takes turns here; `tools` are the environment's tools as OpenAI functions.
A step is a tool call (`tool_name`, `arguments`), observed as the tool's result (a refusal is its error payload,
with `error` true), or a message to the user (`message`): the answer, which ends the episode. Its reward is the
package verifier's verdict, whose `passed`, components and reasons the observation carries in `verdict` (OpenEnv's
wire drops an observation's `metadata`). An episode that makes `max_steps` calls without answering ends unanswered.
"""

from __future__ import annotations

import argparse
import random
import uuid
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pydantic import Field, model_validator

from envforge.errors import EnvforgeError
from envforge.runtime.episode import EnvPackage, Episode, load_package
from envforge.runtime.opened_package import open_package

try:
    import uvicorn
    from fastapi import FastAPI
    from openenv.core import EnvClient
    from openenv.core.client_types import StepResult
    from openenv.core.env_server import Action, Environment, Observation, State, create_app
except ImportError:
    raise ModuleNotFoundError(
        "envforge.adapters.openenv_env needs openenv-core; pip install 'envforge[openenv]' in its own venv",
        name="openenv",
    ) from None

MAX_STEPS = 24
"""Tool calls an episode may make before it ends unanswered: the rollout engine's limit of model turns."""
MAX_SESSIONS = 16
"""Episodes served at once, one per WebSocket session; each holds its own in-memory database."""


class EnvforgeAction(Action):
    """A tool call (`tool_name` with its `arguments`) or the agent's message to the user (`message`), never both."""

    tool_name: str | None = Field(default=None, description="The tool to call.")
    arguments: dict[str, Any] = Field(default_factory=dict, description="The tool's arguments.")
    message: str | None = Field(default=None, description="What the agent tells the user; ends the episode.")

    @model_validator(mode="after")
    def _one_kind(self) -> EnvforgeAction:
        if (self.tool_name is None) == (self.message is None):
            raise ValueError("an action is either a tool call (tool_name) or a message to the user (message)")
        return self


class EnvforgeObservation(Observation):
    """What the agent sees: the prompt and tools at reset, a tool's result after a call, the verdict at the end."""

    task_id: str = Field(description="The episode's task.")
    messages: list[dict[str, str]] = Field(default_factory=list, description="At reset: the trainer prompt.")
    tools: list[dict[str, Any]] = Field(default_factory=list, description="At reset: the tools, as OpenAI functions.")
    tool_name: str | None = Field(default=None, description="The tool just called.")
    result: dict[str, Any] | None = Field(default=None, description="Its result, or its refusal's error payload.")
    error: bool = Field(default=False, description="Whether the call was refused.")
    verdict: dict[str, Any] | None = Field(default=None, description="At the end: passed, components, reasons.")


class EnvforgeState(State):
    """The episode's task, its calls so far, and its verdict once it has ended."""

    task_id: str | None = None
    calls: int = 0
    failed_calls: int = 0
    verdict: dict[str, Any] | None = None


class EnvforgeEnvironment(Environment):
    """One episode at a time on a task of `package`; the server makes one per session."""

    SUPPORTS_CONCURRENT_SESSIONS = True

    def __init__(self, package: EnvPackage, max_steps: int = MAX_STEPS) -> None:
        super().__init__()
        self.package = package
        self.max_steps = max_steps
        self.episode: Episode | None = None
        self._state = EnvforgeState()

    def reset(
        self, seed: int | None = None, episode_id: str | None = None, task_id: str | None = None, **_: Any
    ) -> EnvforgeObservation:
        ids = self.package.task_ids
        if task_id is None:
            task_id = ids[seed % len(ids)] if seed is not None else random.choice(ids)
        self.episode = Episode(self.package, task_id)
        self._state = EnvforgeState(episode_id=episode_id or str(uuid.uuid4()), task_id=self.episode.task.id)
        return EnvforgeObservation(
            task_id=self.episode.task.id,
            messages=self.package.trainer_prompt(self.episode.task.id),
            tools=self.package.env.tool_list(),
        )

    def step(self, action: EnvforgeAction, timeout_s: float | None = None, **_: Any) -> EnvforgeObservation:
        episode = self.episode
        if episode is None or episode.done:
            raise RuntimeError("no episode is running: reset first (with task_id or seed)")
        self._state.step_count += 1
        if action.tool_name is None:
            return self._end(episode, action.message)
        ok, result = episode.call(action.tool_name, action.arguments)
        self._state.calls = len(episode.calls)
        self._state.failed_calls = episode.failed_calls
        if len(episode.calls) >= self.max_steps:
            return self._end(episode, None, tool_name=action.tool_name, result=result, error=not ok)
        return EnvforgeObservation(task_id=episode.task.id, tool_name=action.tool_name, result=result, error=not ok)

    def _end(self, episode: Episode, answer: str | None, **observed: Any) -> EnvforgeObservation:
        verdict = episode.finish(answer, [answer] if answer is not None else [])
        self._state.verdict = {"passed": verdict.passed, "components": verdict.components, "reasons": verdict.reasons}
        return EnvforgeObservation(
            task_id=episode.task.id,
            verdict=self._state.verdict,
            done=True,
            reward=verdict.reward,
            metadata=self._state.verdict,
            **observed,
        )

    @property
    def state(self) -> EnvforgeState:
        return self._state


class EnvforgeClient(EnvClient[EnvforgeAction, EnvforgeObservation, EnvforgeState]):
    """OpenEnv's client for an envforge server: `EnvforgeClient(base_url=...).sync()` steps it without asyncio."""

    def _step_payload(self, action: EnvforgeAction) -> dict[str, Any]:
        payload: dict[str, Any] = action.model_dump(exclude={"metadata"})
        return payload

    def _parse_result(self, payload: dict[str, Any]) -> StepResult[EnvforgeObservation]:
        observation = EnvforgeObservation(
            **payload["observation"], reward=payload.get("reward"), done=payload.get("done", False)
        )
        return StepResult(observation=observation, reward=observation.reward, done=observation.done)

    def _parse_state(self, payload: dict[str, Any]) -> EnvforgeState:
        return EnvforgeState(**payload)


def build_app(
    package: str | Path | EnvPackage, max_sessions: int = MAX_SESSIONS, max_steps: int = MAX_STEPS
) -> FastAPI:
    """OpenEnv's FastAPI app (`/ws`, `/reset`, `/step`, `/state`, `/schema`, `/health`) for the package, each
    session with an environment of its own."""
    loaded = package if isinstance(package, EnvPackage) else load_package(open_package(Path(package)))
    return create_app(
        lambda: EnvforgeEnvironment(loaded, max_steps),
        EnvforgeAction,
        EnvforgeObservation,
        env_name=loaded.env_id,
        max_concurrent_envs=max_sessions,
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve an environment package on OpenEnv's API until interrupted.")
    parser.add_argument("package", type=Path, help="the package folder (made by `envforge generate`)")
    parser.add_argument("--host", default="127.0.0.1", help="the address to listen on (default: %(default)s)")
    parser.add_argument("--port", type=int, default=8000, help="the port; 0 picks a free one (default: %(default)s)")
    parser.add_argument("--max-sessions", type=int, default=MAX_SESSIONS, help="episodes at once")
    parser.add_argument("--max-steps", type=int, default=MAX_STEPS, help="tool calls an episode may make")
    arguments = parser.parse_args(argv)
    try:
        app = build_app(arguments.package, arguments.max_sessions, arguments.max_steps)
    except EnvforgeError as exc:
        parser.exit(2, f"{exc}\n")
    uvicorn.run(app, host=arguments.host, port=arguments.port)


if __name__ == "__main__":
    main()

"""The environment as a Gymnasium text environment.

Observation: text (the user's request after a reset, then each tool result or error). What the task holds back
for the user to give when asked comes after the request, as the user's answer; `info["messages"]` has the chat.
Action: text (a tool call as JSON, optionally in `<tool_call>` tags, or the final answer).
Reward: 0 until the episode ends, then the task verifier's reward. `reset()` chooses the task by
the `task_id` given to `gym.make` or in `options`, or else by the seed, so (task id, seed) fixes it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, SupportsFloat

import gymnasium
import numpy as np
from gymnasium import spaces

from envforge.errors import PackageError
from envforge.ir.noise import NoiseProfile, noise_profile
from envforge.ir.toolspec import ToolArguments
from envforge.runtime.agent_text import AnswerAction, CallAction, parse_action
from envforge.runtime.curriculum import Curriculum
from envforge.runtime.episode import EnvPackage, Episode, load_package, render_result
from envforge.runtime.opened_package import open_package

DEFAULT_MAX_STEPS = 30
_SPEAKERS = {"user": "user", "assistant": "agent"}
_SAMPLE_ALPHABET = list('abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789{}[]":,._-<>/\n')


class AnyText(spaces.Space[str]):
    """Any Python string, or any up to `max_length` characters (Gymnasium's `Text` admits only a fixed charset)."""

    def __init__(self, max_length: int | None = None, seed: int | np.random.Generator | None = None) -> None:
        self.max_length = max_length
        super().__init__(shape=None, dtype=None, seed=seed)

    @property
    def is_np_flattenable(self) -> bool:
        return False

    def sample(self, mask: Any | None = None, probability: Any | None = None) -> str:
        length = int(self.np_random.integers(0, 64))
        return "".join(self.np_random.choice(_SAMPLE_ALPHABET, size=length))

    def contains(self, x: Any) -> bool:
        return isinstance(x, str) and (self.max_length is None or len(x) <= self.max_length)

    def __repr__(self) -> str:
        return f"AnyText(max_length={self.max_length})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AnyText) and other.max_length == self.max_length

    def __hash__(self) -> int:
        return hash(("AnyText", self.max_length))


class ToolUseEnv(gymnasium.Env[str, str]):
    """One environment package; each episode is one of its tasks in a fresh, isolated state."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012 (Gymnasium's own class attribute)

    def __init__(
        self,
        package: Path | str | EnvPackage,
        task_id: str | None = None,
        max_steps: int = DEFAULT_MAX_STEPS,
        render_mode: str | None = None,
        noise: NoiseProfile | str | None = None,
        curriculum: Curriculum | None = None,
    ) -> None:
        """`noise` (a profile, or a name such as `tools@0.3`) garbles the tools' answers; there is no user here, so
        user noise has nothing to act on. A `curriculum` sets the level each episode and hears how it ended."""
        self.package = package if isinstance(package, EnvPackage) else load_package(open_package(Path(package)))
        if task_id is not None:
            self.package.task(task_id)
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode must be None or 'ansi', not {render_mode!r}")
        self.task_id = task_id
        self.max_steps = max_steps
        self.render_mode = render_mode
        self.observation_space = AnyText()
        self.action_space = AnyText()
        self.noise = noise_profile(noise) if isinstance(noise, str) else noise
        self.curriculum = curriculum
        self.episode: Episode | None = None
        self.steps = 0
        self.log: list[str] = []

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[str, dict[str, Any]]:
        super().reset(seed=seed)
        task_id = (options or {}).get("task_id") or self.task_id
        if task_id is None:
            ids = self.package.task_ids
            task_id = ids[int(self.np_random.integers(len(ids)))]
        profile = self.curriculum.current() if self.curriculum is not None else self.noise
        # The episode seed comes from the env's generator, so reset(seed=...) fixes the noise as it fixes the task.
        episode_seed = f"{task_id}:{int(self.np_random.integers(2**31))}" if profile is not None else ""
        drawn = profile.episode(episode_seed) if profile is not None else None
        self.episode = Episode(self.package, str(task_id), noise=drawn)
        self.steps = 0
        messages = self.package.trainer_prompt(self.episode.task.id)
        # No user takes turns here: what the task holds back comes asked and answered, after the request.
        request = "\n\n".join(message["content"] for message in messages if message["role"] == "user")
        self.log = [f"{_SPEAKERS[message['role']]}: {message['content']}" for message in messages[1:]]
        info: dict[str, Any] = {
            "task_id": self.episode.task.id,
            "env_id": self.package.env_id,
            "system": self.package.env.policy,
            "tools": self.package.env.tool_list(),
            "messages": messages,
        }
        if profile is not None:
            info["noise"] = {**profile.model_dump(), "seed": episode_seed, "noisy": drawn is not None}
        if self.curriculum is not None:
            info["curriculum"] = self.curriculum.state()
        return request, info

    def step(self, action: str) -> tuple[str, SupportsFloat, bool, bool, dict[str, Any]]:
        if self.episode is None or self.episode.done:
            raise RuntimeError("call reset() before step(), and again after an episode ends")
        self.steps += 1
        self.log.append(f"agent: {action}")
        parsed = parse_action(action)
        if isinstance(parsed, AnswerAction):
            return self._end(parsed.answer, terminated=True, observation="")
        if isinstance(parsed, CallAction):
            _, result = self.episode.call(parsed.name, parsed.arguments)
            observation = render_result(result)
        else:
            observation = render_result({"error": {"code": "malformed_call", "message": parsed.problem}})
        self.log.append(f"tool: {observation}")
        # Each call noise struck allows one more step, its retry or next page: noise makes work, never truncation.
        if self.steps >= self.max_steps + len(self.episode.tools.events):
            return self._end(None, terminated=False, observation=observation)
        return observation, 0.0, False, False, self._info()

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return "\n".join(self.log)
        return None

    def _end(
        self, answer: str | None, *, terminated: bool, observation: str
    ) -> tuple[str, float, bool, bool, dict[str, Any]]:
        assert self.episode is not None
        verdict = self.episode.finish(answer)
        if self.curriculum is not None:
            self.curriculum.record(verdict.passed)
        info = self._info()
        info["verdict"] = {"passed": verdict.passed, "components": verdict.components, "reasons": verdict.reasons}
        return observation, verdict.reward, terminated, not terminated, info

    def _info(self) -> dict[str, Any]:
        assert self.episode is not None
        return {
            "task_id": self.episode.task.id,
            "step": self.steps,
            "tool_calls": [call.model_dump(mode="json") for call in self.episode.calls],
            "failed_calls": self.episode.failed_calls,
            "noise_events": [f"{event.call} {event.tool}: {event.kind}" for event in self.episode.tools.events],
        }


def register_package(package: Path, env_id: str) -> None:
    """Register a Gymnasium id for an environment package folder (idempotent)."""
    if env_id in gymnasium.registry:
        return
    if not package.is_dir():
        raise PackageError(f"{package}: the environment package data is missing; reinstall the wheel")
    gymnasium.register(id=env_id, entry_point=f"{__name__}:ToolUseEnv", kwargs={"package": str(package)})


def action_for_call(name: str, arguments: ToolArguments) -> str:
    """The action text for a tool call (what a scripted agent or an oracle replay sends)."""
    return json.dumps({"name": name, "arguments": arguments}, ensure_ascii=False)

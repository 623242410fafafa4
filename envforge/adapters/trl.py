"""TRL's `GRPOTrainer(environment_factory=...)`: the bases of the generated environment classes.

TRL makes one instance per rollout, calls `reset(**row)` with the dataset row, and exposes every
public function of the class as a tool, so this base defines only `reset` and private helpers;
the exported `trl_env.py` adds one typed, documented method per tool. The reward is
`verifier_reward`: it needs the model's final message for question tasks, which an environment
alone never sees, so it is a reward function over (completions, environments).

TRL's rollout ends at the model's first message without a tool call, so a user in the loop is reached through a
tool: `ConversationEnvironment.send_message_to_user` gives the agent's message to the scripted user and returns the
reply, as `envforge rollout` would; the conversation is over when the model answers without a tool call. Its rows
start from the user's opener (the dataset's `opening` column), not from the folded `prompt`.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any, ClassVar

from envforge.adapters.noise import noise_source
from envforge.adapters.packages import installed_package
from envforge.ir.tasks import Verdict
from envforge.runtime.episode import Episode, render_result
from envforge.users.conversation import MAX_USER_TURNS, Conversation
from envforge.users.scripted import ScriptedUser


class ToolEnvironment:
    """One rollout's environment: an isolated session at the task's initial state."""

    env_module: ClassVar[str]
    """The installed environment wheel's module, e.g. `envforge_env_retail`."""
    max_result_chars: ClassVar[int | None] = None
    """Cut tool results longer than this (small models have short contexts); None keeps them whole."""
    noise: ClassVar[str | None] = None
    """A noise profile for every rollout, e.g. `all@0.3` (`envforge.ir.noise`); None runs clean."""
    curriculum: ClassVar[str | None] = None
    """Levels the noise rises through as this process's rollouts pass more often, e.g. `0,0.3,0.6,1`."""

    def __init__(self) -> None:
        self._package = installed_package(self.env_module)
        self._episode: Episode | None = None

    def reset(self, **row: Any) -> str | None:
        """Start the rollout of the row's task; nothing is added to the prompt."""
        self._episode = self._new_episode(str(row["task_id"]))
        return None

    def _new_episode(self, task_id: str) -> Episode:
        source = noise_source(self.noise, self.curriculum) if self.noise else None
        return Episode(self._package, task_id, noise=source.draw(task_id) if source is not None else None)

    def _call(self, name: str, arguments: dict[str, Any]) -> str:
        if self._episode is None:
            raise RuntimeError(f"{type(self).__name__}: reset(task_id=...) before calling tools")
        _, result = self._episode.call(name, {key: value for key, value in arguments.items() if value is not None})
        text = render_result(result)
        limit = self.max_result_chars
        return text if limit is None or len(text) <= limit else text[:limit] + " ...(cut)"

    def _calls_made(self) -> int:
        return 0 if self._episode is None else len(self._episode.calls)

    def _accepted_calls(self) -> int:
        return 0 if self._episode is None else len(self._episode.calls) - self._episode.failed_calls

    def _finish(self, answer: str | None) -> Verdict:
        """The rollout's verdict, which a curriculum hears."""
        verdict = self._judge(answer)
        if self.noise:
            noise_source(self.noise, self.curriculum).record(verdict.passed)
        return verdict

    def _judge(self, answer: str | None) -> Verdict:
        if self._episode is None:
            raise RuntimeError(f"{type(self).__name__}: no rollout to judge; reset(task_id=...) first")
        return self._episode.finish(answer)


class ConversationEnvironment(ToolEnvironment):
    """A rollout with the scripted user in the loop: the agent talks to the user through `send_message_to_user`."""

    max_user_turns: ClassVar[int] = MAX_USER_TURNS

    def __init__(self) -> None:
        super().__init__()
        self._conversation: Conversation | None = None

    def reset(self, **row: Any) -> str | None:
        """Start the rollout of the row's task with the user's opener as the prompt; nothing is added to it."""
        self._episode = self._new_episode(str(row["task_id"]))
        self._conversation = Conversation(self._episode, ScriptedUser(), max_user_turns=self.max_user_turns)
        return None

    async def send_message_to_user(self, message: str) -> str:
        """Send a message to the customer and wait for their answer: ask for what you need to know, confirm before
        changing anything, or report what you did. Your last message, written without any tool call, ends the
        conversation.

        Args:
            message: What you say to the customer.

        Returns:
            The customer's reply.
        """
        if self._conversation is None:
            raise RuntimeError(f"{type(self).__name__}: reset(task_id=...) before talking to the user")
        reply = await self._conversation.say(message)
        if reply is None:
            return "(The customer has nothing more to say. Reply without a tool call to end the conversation.)"
        return reply

    def _judge(self, answer: str | None) -> Verdict:
        if self._conversation is None:
            raise RuntimeError(f"{type(self).__name__}: no rollout to judge; reset(task_id=...) first")
        return self._conversation.finish(answer)


def final_answer(completion: list[dict[str, Any]] | str) -> str | None:
    """The agent's last message to the user that is not a tool call."""
    if isinstance(completion, str):
        return completion
    for message in reversed(completion):
        if message.get("role") == "assistant" and not message.get("tool_calls") and message.get("content"):
            return str(message["content"])
    return None


def verifier_reward(completions: list[Any], environments: list[ToolEnvironment], **kwargs: Any) -> list[float]:
    """TRL reward function: each rollout's task verifier on its final state and final answer."""
    return [
        environment._finish(final_answer(completion)).reward
        for completion, environment in zip(completions, environments, strict=True)
    ]


def tool_use_reward(completions: list[Any], environments: list[ToolEnvironment], **kwargs: Any) -> list[float]:
    """A shaping reward for small models: 0.05 per well-formed call that reached the environment and
    0.1 more per call it accepted, at most 0.5.

    GRPO learns nothing from a group whose rewards are all equal, and a small model fails every
    task at first; calls are judged by the environment's own dispatch, never by the text.
    """
    return [
        min(0.5, 0.05 * environment._calls_made() + 0.1 * environment._accepted_calls()) for environment in environments
    ]


def with_tools(environment: type[ToolEnvironment], names: list[str]) -> type[ToolEnvironment]:
    """The environment class exposing only `names` as tools (TRL offers every public method), e.g. for a curriculum."""
    tools = {name for name, _ in inspect.getmembers(environment, inspect.isfunction) if not name.startswith("_")}
    unknown = sorted(set(names) - (tools - {"reset"}))
    if unknown:
        raise ValueError(f"{environment.__name__} has no tools {', '.join(unknown)}")
    namespace: dict[str, Any] = {name: getattr(environment, name) for name in names}
    namespace |= {
        "env_module": environment.env_module,
        "max_result_chars": environment.max_result_chars,
        "__doc__": environment.__doc__,
    }
    base = ConversationEnvironment if issubclass(environment, ConversationEnvironment) else ToolEnvironment
    return type(environment.__name__, (base,), namespace)


def environment_factories(*env_modules: str, user: bool = False) -> dict[str, type[ToolEnvironment]]:
    """`environment_factory=` for a mixed suite: the dataset's `environment` column -> each wheel's class (with
    the user in the loop when `user`; then train on the `opening` column)."""
    factories: dict[str, type[ToolEnvironment]] = {}
    for env_module in env_modules:
        module = importlib.import_module(f"{env_module}.trl_env")
        factories[str(module.ENVIRONMENT_NAME)] = module.ENVIRONMENT_WITH_USER if user else module.ENVIRONMENT
    return factories

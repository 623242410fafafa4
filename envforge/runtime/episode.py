"""An environment package with its tasks, and one agent episode on one task.

This is what every training adapter (Gymnasium, TRL, verl) drives: an isolated session reset to the
task's initial state, the calls the agent made, and the shipped verifier's verdict at the end.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import cast

from envforge.hashing import canonical_json
from envforge.ir.noise import EpisodeNoise
from envforge.ir.tasks import Reaction, RunHistory, TaskSpec, ToolCall, Transcript, Verdict
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.claims import Vocabulary, closing_message, environment_vocabulary
from envforge.runtime.clarify import clarification
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import OpenedPackage
from envforge.runtime.session import Session
from envforge.runtime.tasks import check_verifiers_present, load_package_verifier, load_tasks, pick_task
from envforge.runtime.tool_noise import NoisyTools

VERIFY_PARAMETERS = 3
"""`verify(history, transcript, vocabulary)`: what a verifier takes since it reads the agent's messages."""


@dataclass
class EnvPackage:
    """An opened package, loaded: the compiled environment, its tasks and (lazily) their verifiers."""

    files: OpenedPackage
    """The opened package: its files, read through the manifest's hashes (unchecked only for `envforge check`)."""
    env: Environment
    tasks: dict[str, TaskSpec]
    _verifiers: dict[str, Callable[[RunHistory, Transcript], Verdict]] = field(default_factory=dict, repr=False)

    @property
    def path(self) -> Path:
        return self.files.path

    @property
    def env_id(self) -> str:
        return self.env.env_id

    @property
    def task_ids(self) -> list[str]:
        return sorted(self.tasks)

    def task(self, task_id: str) -> TaskSpec:
        return pick_task(self.path, self.tasks, task_id)

    def verify(self, task_id: str, history: RunHistory, transcript: Transcript) -> Verdict:
        """Judge a run (what its session logged, and its transcript) with the package's shipped verifier."""
        judge = self._verifiers.get(task_id)
        if judge is None:
            judge = self._verifiers[task_id] = self._judge(load_package_verifier(self.files, task_id))
        return judge(history, transcript)

    def _judge(self, module: ModuleType) -> Callable[[RunHistory, Transcript], Verdict]:
        """The verifier as called: with the claim vocabulary, or, for a package made before verifiers read the
        conversation, as it was (history and answer); told apart once, when it is loaded."""
        verify = module.verify
        if len(inspect.signature(verify).parameters) < VERIFY_PARAMETERS:
            return lambda history, transcript: cast(Verdict, verify(history, transcript))
        return lambda history, transcript: cast(Verdict, verify(history, transcript, self.vocabulary))

    @property
    def vocabulary(self) -> Vocabulary:
        """The words of the domain's actions, by which a verifier reads what the agent's messages claim."""
        return environment_vocabulary(self.env)

    def prompt(self, task_id: str) -> list[dict[str, str]]:
        """What the agent sees first: the policy as the system message and the user's request."""
        return [
            {"role": "system", "content": self.env.policy},
            {"role": "user", "content": self.task(task_id).instruction},
        ]

    def golden_message(self, task_id: str) -> str:
        """What a correct run tells the user last: the answer, or each write done and each refusal with its
        policy (`envforge.runtime.claims.closing_message`)."""
        return closing_message(self.task(task_id), self.env.blueprint)

    def trainer_prompt(self, task_id: str) -> list[dict[str, str]]:
        """The prompt for a trainer with no user to ask (TRL, verl): the request, then the agent's question for
        everything the user held back and the user's answer, with what the user would ask for later said at once,
        since no one is there to say it once the first request is done (an offer's answer as a condition)."""
        task = self.task(task_id)
        messages = [*self.prompt(task_id), *clarification(task, everything=True)]
        later = [_at_once(reaction) for reaction in task.scenario.script if reaction.when != "refused"]
        if later:
            last = messages[-1]
            messages[-1] = {**last, "content": " ".join([last["content"], *later])}
        return messages


OFFER_TAKEN = "If that's more than you can do, I'll take whatever you can offer instead."
OFFER_DECLINED = "If you can't do that exactly, please leave that part as it is."


def _at_once(reaction: Reaction) -> str:
    """What the user would say later, said in the first message to an agent with no user to answer it: a follow-up
    or a change of mind as they would say it; what they would answer an offer, as a condition, since no offer has
    been made yet (and its amount is the agent's to work out)."""
    if reaction.when == "offered":
        return OFFER_TAKEN if reaction.takes else OFFER_DECLINED
    return reaction.say


def load_package(package: OpenedPackage) -> EnvPackage:
    """Load an opened package for episodes; a broken or changed package is one PackageError line."""
    env = load_environment(package)
    tasks = load_tasks(package)
    check_verifiers_present(package, tasks)
    return EnvPackage(files=package, env=env, tasks=tasks)


def render_result(result: ToolResult) -> str:
    """A tool result as the agent reads it: compact, stable JSON."""
    return canonical_json(result)


class Episode:
    """One attempt at one task: a private session, every call made, and the verdict when it ends."""

    def __init__(
        self, package: EnvPackage, task_id: str, session: Session | None = None, noise: EpisodeNoise | None = None
    ) -> None:
        self.package = package
        self.task = package.task(task_id)
        self.session = session if session is not None else Session(package.env)
        self.session.act_for(self.task.scenario.person)
        self.session.reset()
        self.initial = self.session.snapshot()
        self.noise = noise
        self.tools = NoisyTools(self.session, noise)
        self.calls: list[ToolCall] = []
        self.failed_calls = 0
        self.verdict: Verdict | None = None

    @property
    def done(self) -> bool:
        return self.verdict is not None

    def call(self, name: str, arguments: ToolArguments) -> tuple[bool, ToolResult]:
        """Call a tool in this episode's state; a refused call returns its error and changes nothing."""
        if self.verdict is not None:
            raise RuntimeError(f"episode of task {self.task.id} has ended; reset before calling tools")
        self.calls.append(ToolCall(name=name, arguments=arguments))
        ok, result = self.tools.call_tool(name, arguments)
        if not ok:
            self.failed_calls += 1
        return ok, result

    def judge(self, answer: str | None = None, messages: Sequence[str] = ()) -> Verdict:
        """The task's verdict on the episode so far, which goes on: what a harness reads to decide whether a
        conversation is over and whether the task's writes are in place yet."""
        transcript = Transcript(calls=self.calls, answer=answer, messages=list(messages))
        return self.package.verify(self.task.id, self.session.history(), transcript)

    def finish(self, answer: str | None = None, messages: Sequence[str] = ()) -> Verdict:
        """End the episode with the agent's final answer (and every message it sent, if it sent more than one) and
        judge it with the task's verifier."""
        if self.verdict is None:
            self.verdict = self.judge(answer, messages)
        return self.verdict

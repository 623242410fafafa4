"""The harness's operations on a server's episodes: the same whether the agent speaks MCP or drives an app.

Create an episode for a task (bound to its person; the answer holds what the agent is first told: the policy,
the opening message and the tools), reset it, judge it with a transcript, close it, and list the episodes with
the latest evictions. In process these are `Harness` methods; over HTTP the routes of `harness_routes.py`, which
every server mounts behind the harness's token. A refusal is a `HarnessError` carrying its HTTP status.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from envforge.errors import EnvforgeError, PackageError, clip_message
from envforge.ir.base import IRModel
from envforge.ir.tasks import Transcript, Verdict
from envforge.ir.uitasks import UI_TASKS_FILE, AppKind
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.diff import diff_states
from envforge.runtime.episode import EnvPackage
from envforge.runtime.episode_store import EpisodeStore, ServedEpisode
from envforge.runtime.errors import ToolError
from envforge.runtime.session import snapshot_problem

STATUS = {"invalid_episode": 400, "episode_unknown": 404, "episode_ended": 404, "episode_live": 409}
"""The HTTP status of each refusal the episode store answers."""


class HarnessError(EnvforgeError):
    """A refused harness request: what is wrong and how to fix it, with the HTTP status that says so, and for an
    episode the store refused its code (`episode_ended`, `episode_unknown`, ...)."""

    def __init__(self, status: int, message: str, code: str | None = None) -> None:
        super().__init__(clip_message(message))
        self.status = status
        self.code = code


class CreateRequest(IRModel):
    """The body of `POST /harness/episodes`: a task's episode, or a free one asked for explicitly."""

    task: str | None = None
    """The task the episode serves; its session acts for the task's person."""
    free: bool = False
    """True for an episode with no task (and no person): listed as free, and never judged."""
    episode: str | None = None
    """The episode's id (a client names it in `_meta` or a header over MCP); a random one when left out."""


@dataclass
class Harness:
    """The harness API over one server's episodes of one package."""

    package: EnvPackage
    episodes: EpisodeStore
    app: AppKind | None = None
    """The app the server serves (episodes then have a page URL, and the app's wording of each task)."""
    _posed: dict[str, str] | None = field(default=None, repr=False)

    def create(self, request: CreateRequest) -> ServedEpisode:
        if (request.task is not None) == request.free:  # neither, or both
            raise HarnessError(
                400, 'send {"task": "<a task id of the package>"}, or {"free": true} for an episode with no task'
            )
        try:
            if request.task is None:
                return self.episodes.open_free(request.episode)
            return self.episodes.open_task(self.package.task(request.task), request.episode)
        except PackageError as error:
            raise HarnessError(400, str(error)) from None
        except ToolError as error:
            raise refusal(error) from None

    def episode(self, episode: str) -> ServedEpisode:
        """A live episode, or the refusal that says why it is not (its eviction, or that it never existed)."""
        try:
            return self.episodes.get(episode)
        except ToolError as error:
            raise refusal(error) from None

    def described(self, served: ServedEpisode) -> dict[str, Any]:
        described: dict[str, Any] = {
            "episode": served.id,
            "task": served.task_id,
            "free": served.free,
            "person": served.session.person,
            "state_hash": served.session.state_hash(),
        }
        if self.app is not None:
            described["url"] = f"/e/{served.token}/"
        return described

    def opening(self, served: ServedEpisode) -> dict[str, Any]:
        """The episode and what its agent is told first: the policy, the user's opening message, the tools."""
        opening = None
        if served.task_id is not None:
            prompt = self.package.prompt(served.task_id)
            opening = self._posed_instructions().get(served.task_id, prompt[-1]["content"])
        return {
            **self.described(served),
            "policy": self.package.env.policy,
            "opening": opening,
            "tools": self.package.env.tool_list(),
        }

    def _posed_instructions(self) -> dict[str, str]:
        """The instructions worded for this app's screens (`apps/ui_tasks.jsonl`); none over MCP."""
        if self._posed is None:
            files = self.package.files
            posed = load_ui_tasks(files) if self.app is not None and files.exists(UI_TASKS_FILE) else []
            self._posed = {task.task_id: task.instruction for task in posed if task.app == self.app}
        return self._posed

    def reset(self, episode: str) -> ServedEpisode:
        try:
            return self.episodes.reset(episode)
        except ToolError as error:
            raise refusal(error) from None

    def verdict(self, episode: str, transcript: Mapping[str, Any]) -> Verdict:
        """The package's verifier on the episode's history and the agent's transcript (a `Transcript`'s fields).
        Its `calls` default to the calls the server saw in the episode, so a harness may send only the answer; its
        channel is the server's (an app's episodes owe the user no report)."""
        served = self.episode(episode)
        if served.task_id is None:
            raise HarnessError(409, f"episode '{episode}' is free (created with no task): there is nothing to judge")
        try:
            channel = "app" if self.app is not None else "chat"
            judged = Transcript.model_validate({"calls": served.tool_calls(), **transcript, "channel": channel})
        except ValidationError as error:
            first = error.errors()[0]
            where = ".".join(str(part) for part in first["loc"]) or "the body"
            raise HarnessError(400, f"not a transcript: {where}: {first['msg']}") from None
        try:
            return self.package.verify(served.task_id, served.session.history(), judged)
        except PackageError as error:
            # The package is broken, not the request: the episode cannot be judged as the package stands.
            raise HarnessError(409, str(error)) from None

    def close(self, episode: str) -> None:
        self.episode(episode)
        self.episodes.close(episode)

    def state(self, episode: str) -> dict[str, Any]:
        served = self.episode(episode)
        session = served.session
        return {**self.described(served), "tables": {name: session.rows(name) for name in sorted(session.env.entities)}}

    def diff(self, episode: str) -> list[dict[str, Any]]:
        served = self.episode(episode)
        changes = diff_states(served.initial_state(), served.session.snapshot())
        return [change.model_dump(mode="json") for change in changes]

    def put_snapshot(self, episode: str, state: bytes) -> ServedEpisode:
        served = self.episode(episode)
        problem = snapshot_problem(served.session.env, state)
        if problem is not None:
            raise HarnessError(400, f"{problem}; send bytes from GET .../snapshot of this environment")
        served.session.reset(state)
        return served


def refusal(error: ToolError) -> HarnessError:
    return HarnessError(STATUS.get(error.code, 400), error.message, error.code)

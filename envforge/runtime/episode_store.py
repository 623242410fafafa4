"""The episodes one server holds, whatever the transport: MCP (stdio, streamable HTTP, in process) or an app.

The harness creates an episode for a task, and its session acts for the task's person, so a write to another
person's row is refused; an episode with no task (a free one) exists only when the harness asks for one, or on a
server started to allow them, and every listing says which it is. The harness knows an episode by its id, an
app's pages only by its page token: two secrets, so a page can never name its own harness handle.

At most `max_episodes` are live; past the cap the least recently used is dropped, and so is one idle longer than
`idle_timeout`. Drops are remembered, so a late call learns why its episode ended instead of landing in a fresh
state that looks like the old one.
"""

from __future__ import annotations

import logging
import re
import secrets
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict, Unpack

from envforge.ir.serving import DEFAULT_MAX_EPISODES
from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.environment import Environment
from envforge.runtime.errors import ToolError
from envforge.runtime.session import UNDO_LIMIT, Session
from envforge.runtime.shared_state import SharedState

logger = logging.getLogger(__name__)

EPISODE_ID_MAX = 128
EPISODE_ID = re.compile(rf"[\w.:@+-]{{1,{EPISODE_ID_MAX}}}")
"""Letters, digits and `_.:@+-`: what uuids, task ids and `connection:...` ids use; no spaces or controls."""
BAD_EPISODE_ID = f"an episode id is 1 to {EPISODE_ID_MAX} letters, digits or _.:@+- characters; use e.g. a uuid"
DROPPED_KEPT = 10
"""How many dropped ids per live-episode slot the store remembers, to say why they ended."""
DROPPED_REPORTED = 100
"""How many of the latest evictions a listing shows."""
CREATE = 'POST /harness/episodes {"task": "<task id>", "episode": "<id>"}'

DropReason = Literal["capacity", "idle", "closed"]


@dataclass(frozen=True)
class Dropped:
    """An episode the store let go of, why, and what it served (so a reset can start it again)."""

    episode: str
    task_id: str | None
    person: str | None
    reason: DropReason
    at: float
    """Unix time."""

    def message(self, limit: int, idle_timeout: float | None) -> str:
        if self.reason == "capacity":
            why = f"the server reached its limit of {limit:,} live episodes and dropped the least recent"
        elif self.reason == "idle":
            why = f"it was idle for more than {idle_timeout or 0:g} s"
        else:
            why = "the harness closed it"
        return (
            f"episode '{self.episode}' has ended: {why}; its state is gone. The harness can start it again with "
            f"POST /harness/episodes/{self.episode}/reset (raise `serve --max-episodes` or `--idle-timeout` to keep more)"
        )


@dataclass
class ServedEpisode:
    """One run served to an agent: its session (on the store's shared template), what it started from, and every call
    made in it."""

    id: str
    token: str
    """The app's page token (`/e/<token>/`)."""
    session: Session
    task_id: str | None
    """None for a free episode."""
    created: float
    """Unix time."""
    used: float
    """`time.monotonic()` of the last use, for the idle timeout."""
    calls: list[tuple[str, dict[str, Any], bool]] = field(default_factory=list)
    """Every tool call made in the episode, over MCP or by the pages: (tool, arguments, ok)."""
    flash: str | None = None
    """The success line the app's next page shows, set only after a WRITE call returned ok."""

    @property
    def free(self) -> bool:
        return self.task_id is None

    def call(self, tool: str, arguments: ToolArguments) -> tuple[bool, ToolResult]:
        """Call a tool in the episode's session and record it; never raises for a bad call."""
        ok, result = self.session.call_tool(tool, arguments)
        self.calls.append((tool, arguments, ok))
        return ok, result

    def transcript(self, answer: str | None = None) -> Transcript:
        """The app run as a verifier reads it: the calls made in the episode, and the answer given."""
        return Transcript(calls=self.tool_calls(), answer=answer, channel="app")

    def tool_calls(self) -> list[ToolCall]:
        return [ToolCall(name=name, arguments=dict(arguments)) for name, arguments, _ in self.calls]

    def initial_state(self) -> bytes:
        """The state every episode starts from: the template's."""
        return self.session.env.template

    def take_flash(self) -> str | None:
        flash, self.flash = self.flash, None
        return flash

    def reset(self) -> None:
        """Back to the initial state, acting for the same person, with no calls made."""
        self.session.reset()
        self.calls.clear()
        self.flash = None


class StoreLimits(TypedDict, total=False):
    """How a server keeps its episodes (`serve --max-episodes`, `--idle-timeout`, `--free-episodes`)."""

    max_episodes: int
    idle_timeout: float | None
    free_episodes: bool


class EpisodeStore:
    """The live episodes of one environment, their cap and idle timeout, and the recent drops."""

    def __init__(self, env: Environment, **limits: Unpack[StoreLimits]) -> None:
        self.env = env
        self.max_episodes = limits.get("max_episodes", DEFAULT_MAX_EPISODES)
        self.idle_timeout = limits.get("idle_timeout")
        """Seconds without use after which an episode is dropped; None keeps episodes until the cap."""
        self.free_episodes = limits.get("free_episodes", False)
        """Whether a call naming an episode the harness never created starts a free one (else it is refused)."""
        self.live: OrderedDict[str, ServedEpisode] = OrderedDict()
        """Live episodes, least recently used first."""
        self.dropped: OrderedDict[str, Dropped] = OrderedDict()
        """Recently dropped episodes, oldest first (at most DROPPED_KEPT x max_episodes)."""
        self._by_token: dict[str, ServedEpisode] = {}
        self.shared = SharedState(env, UNDO_LIMIT)
        """The one copy of the template the episodes take turns on: each holds only what it changed."""

    def open_task(self, task: TaskSpec, episode: str | None = None) -> ServedEpisode:
        """A new episode for `task`, acting for its person; `episode` chooses its id (else a random one)."""
        return self._open(episode, task.id, task.scenario.person)

    def open_free(self, episode: str | None = None, person: str | None = None) -> ServedEpisode:
        """A new episode with no task, asked for explicitly; it acts for `person` (None: no ownership check)."""
        return self._open(episode, None, person)

    def _open(self, episode: str | None, task_id: str | None, person: str | None) -> ServedEpisode:
        if episode is not None and not EPISODE_ID.fullmatch(episode):
            raise ToolError("invalid_episode", BAD_EPISODE_ID)
        self._expire(time.monotonic())
        if episode in self.live:
            raise ToolError(
                "episode_live",
                f"episode '{episode}' is live already; reset it (POST /harness/episodes/{episode}/reset) "
                f"or close it (DELETE /harness/episodes/{episode}) first",
            )
        if len(self.live) >= self.max_episodes:
            self._drop(next(iter(self.live)), "capacity")
        session = Session(self.env, person, self.shared)
        served = ServedEpisode(
            id=episode or secrets.token_hex(8),
            token=secrets.token_urlsafe(16),
            session=session,
            task_id=task_id,
            created=time.time(),
            used=time.monotonic(),
        )
        self.live[served.id] = served
        self._by_token[served.token] = served
        self.dropped.pop(served.id, None)
        return served

    def get(self, episode: str) -> ServedEpisode:
        """A live episode, marked used; a dropped or unknown one is a ToolError saying why and what to do."""
        if not EPISODE_ID.fullmatch(episode):
            raise ToolError("invalid_episode", BAD_EPISODE_ID)
        now = time.monotonic()
        self._expire(now)
        served = self.live.get(episode)
        if served is None:
            dropped = self.dropped.get(episode)
            if dropped is not None:
                raise ToolError("episode_ended", dropped.message(self.max_episodes, self.idle_timeout))
            raise ToolError(
                "episode_unknown",
                f"no episode '{episode}' on this server: the harness creates each episode first, with {CREATE}",
            )
        self.live.move_to_end(episode)
        served.used = now
        return served

    def for_call(self, episode: str) -> ServedEpisode:
        """The episode an agent's call runs in: a live one, or, where free episodes are allowed, a new free one
        for an id never seen; a dropped one is refused until the harness resets it."""
        if episode not in self.live and episode not in self.dropped:
            if self.free_episodes:
                return self.open_free(episode)
            raise ToolError(
                "episode_unknown",
                f"no episode '{episode}' on this server: the harness creates each episode first, with {CREATE} "
                "(a server started with `serve --free-episodes` lets clients name their own)",
            )
        return self.get(episode)

    def by_token(self, token: str) -> ServedEpisode | None:
        """The live episode of an app page token, marked used."""
        self._expire(time.monotonic())
        served = self._by_token.get(token)
        return self.get(served.id) if served is not None else None

    def reset(self, episode: str) -> ServedEpisode:
        """Back to its initial state; a dropped episode starts again as it was created (same task and person)."""
        dropped = self.dropped.get(episode)
        if episode not in self.live and dropped is not None:
            return self._open(episode, dropped.task_id, dropped.person)
        served = self.get(episode)
        served.reset()
        return served

    def close(self, episode: str) -> bool:
        """Forget an episode; its next use answers `episode_ended`. False when it was not live."""
        if episode not in self.live:
            return False
        self._drop(episode, "closed")
        return True

    def _drop(self, episode: str, reason: DropReason) -> None:
        served = self.live.pop(episode)
        self._by_token.pop(served.token, None)
        served.session.close()
        self.dropped.pop(episode, None)
        self.dropped[episode] = Dropped(episode, served.task_id, served.session.person, reason, time.time())
        while len(self.dropped) > DROPPED_KEPT * self.max_episodes:
            self.dropped.popitem(last=False)
        if reason != "closed":
            logger.warning("dropped episode %s (%s)", episode, reason)

    def _expire(self, now: float) -> None:
        if self.idle_timeout is None:
            return
        # Episodes are kept in order of use, so the idle ones are at the front.
        while self.live:
            oldest = next(iter(self.live.values()))
            if now - oldest.used <= self.idle_timeout:
                return
            self._drop(oldest.id, "idle")

    def report(self) -> dict[str, Any]:
        """What the harness sees: the live episodes with their tasks, the limits, and the latest evictions."""
        now = time.monotonic()
        self._expire(now)
        return {
            "live": len(self.live),
            "max_episodes": self.max_episodes,
            "idle_timeout": self.idle_timeout,
            "free_episodes": self.free_episodes,
            "episodes": [
                {
                    "episode": served.id,
                    "task": served.task_id,
                    "free": served.free,
                    "person": served.session.person,
                    "created": served.created,
                    "idle_s": round(now - served.used, 3),
                    "calls": len(served.calls),
                }
                for served in reversed(self.live.values())
            ],
            "dropped": [
                {"episode": item.episode, "task": item.task_id, "reason": item.reason, "at": item.at}
                for item in reversed(self.dropped.values())
                if item.reason != "closed"
            ][:DROPPED_REPORTED],
        }

    def __len__(self) -> int:
        return len(self.live)

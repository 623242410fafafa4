"""The environment as an MCP server: many isolated episodes in one process.

An episode is chosen, in order, by the request's `_meta["envforge/episode"]`, the HTTP header
`X-Envforge-Episode`, or the client's connection (handshake-era clients have one each). A request that
names none of these is refused with `episode_required` when the server is shared (streamable HTTP, or
in process), since mcp 2.x requests in the default mode are self-contained and two such clients would
otherwise land in one state and see each other's writes; an MCP user expects either isolation or a clear
error, never silent sharing. Over stdio a process serves one client, so it gets the one default episode.

Episodes are created on first use. One the server dropped (the `max_episodes` cap, the idle timeout, or
the harness closing it) answers `episode_ended` until the harness resets it, never a fresh state that
looks like the old one. Reset and state inspection are harness operations on `EnvServer`, never tools an
agent can call.
"""

from __future__ import annotations

import json
import logging
import re
import time
import weakref
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Literal

from mcp.shared.message import SessionMessage
from mcp.types import INVALID_PARAMS, INVALID_REQUEST, ErrorData, JSONRPCError
from pydantic import ValidationError

from envforge.ir.serving import DEFAULT_MAX_EPISODES
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.dispatch import shown_name
from envforge.runtime.environment import Environment
from envforge.runtime.errors import ToolError
from envforge.runtime.mcp_compat import RequestInfo, make_server
from envforge.runtime.session import Session
from envforge.version import __version__

logger = logging.getLogger(__name__)

EPISODE_META_KEY = "envforge/episode"
EPISODE_HEADER = "x-envforge-episode"
DEFAULT_EPISODE = "default"
EPISODE_ID_MAX = 128
EPISODE_ID = re.compile(rf"[\w.:@+-]{{1,{EPISODE_ID_MAX}}}")
"""Letters, digits and `_.:@+-`: what uuids, task ids and `connection:...` ids use; no spaces or controls."""
DROPPED_KEPT = 10
"""How many dropped ids per live-episode slot the server remembers, to answer `episode_ended` for them."""

DROPPED_REPORTED = 100
"""How many of the latest evictions the harness report lists."""

DropReason = Literal["capacity", "idle", "closed"]
Anonymous = Literal["refuse", "default"]


@dataclass(frozen=True)
class Dropped:
    """An episode the server let go of, and why."""

    episode: str
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


class EnvServer:
    """Owns the episodes of one environment and the MCP server that serves them."""

    def __init__(
        self,
        env: Environment,
        *,
        max_episodes: int = DEFAULT_MAX_EPISODES,
        idle_timeout: float | None = None,
        anonymous: Anonymous = "refuse",
    ) -> None:
        self.env = env
        self.max_episodes = max_episodes
        self.idle_timeout = idle_timeout
        """Seconds without a call after which an episode is dropped; None keeps episodes until the cap."""
        self.anonymous = anonymous
        """What a request that names no episode gets: refused, or the one default episode (stdio)."""
        self.episodes: OrderedDict[str, Session] = OrderedDict()
        self._used: dict[str, float] = {}
        self.dropped: OrderedDict[str, Dropped] = OrderedDict()
        """Recently dropped episodes, oldest first (at most DROPPED_KEPT x max_episodes)."""
        self._connections: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()
        self._tool_specs = [
            {
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.parameters,
                "outputSchema": tool.returns,
            }
            for tool in env.toolgraph.tools
        ]
        self.server = make_server(
            f"envforge-{env.blueprint.domain}", __version__, env.policy, self._list_tools, self._call_tool
        )

    def _drop(self, episode: str, reason: DropReason) -> None:
        session = self.episodes.pop(episode, None)
        self._used.pop(episode, None)
        if session is not None:
            session.close()
        self.dropped.pop(episode, None)
        self.dropped[episode] = Dropped(episode, reason, time.time())
        while len(self.dropped) > DROPPED_KEPT * self.max_episodes:
            self.dropped.popitem(last=False)
        if reason != "closed":
            logger.warning("dropped episode %s (%s)", episode, reason)

    def _expire(self, now: float) -> None:
        if self.idle_timeout is None:
            return
        # Episodes are kept in order of use, so the idle ones are at the front.
        while self.episodes:
            oldest = next(iter(self.episodes))
            if now - self._used[oldest] <= self.idle_timeout:
                return
            self._drop(oldest, "idle")

    def session(self, episode: str = DEFAULT_EPISODE) -> Session:
        """Harness operation: the episode's session, created from the template if it is not live."""
        now = time.monotonic()
        self._expire(now)
        session = self.episodes.get(episode)
        if session is None:
            if len(self.episodes) >= self.max_episodes:
                self._drop(next(iter(self.episodes)), "capacity")
            session = Session(self.env)
            self.episodes[episode] = session
            self.dropped.pop(episode, None)
        else:
            self.episodes.move_to_end(episode)
        self._used[episode] = now
        return session

    def live_session(self, episode: str) -> Session:
        """The session an agent's call runs in: a new episode is created, a dropped one is refused."""
        self._expire(time.monotonic())
        dropped = self.dropped.get(episode)
        if dropped is not None and episode not in self.episodes:
            raise ToolError("episode_ended", dropped.message(self.max_episodes, self.idle_timeout))
        return self.session(episode)

    def report(self) -> dict[str, Any]:
        """What the harness sees of the episodes: how many are live, the limits, and the recent drops."""
        self._expire(time.monotonic())
        return {
            "live": len(self.episodes),
            "max_episodes": self.max_episodes,
            "idle_timeout": self.idle_timeout,
            "dropped": [
                {"episode": item.episode, "reason": item.reason, "at": item.at}
                for item in reversed(self.dropped.values())
                if item.reason != "closed"
            ][:DROPPED_REPORTED],
        }

    def act_for(self, episode: str, person: str | None) -> None:
        """Harness operation: bind the episode to the person its task serves (None: no ownership check)."""
        self.session(episode).act_for(person)

    def reset(self, episode: str = DEFAULT_EPISODE) -> None:
        """Harness operation: put the episode back to the initial state (starting a dropped one again)."""
        self.session(episode).reset()

    def close(self, episode: str) -> None:
        """Harness operation: forget an episode; its next call answers `episode_ended`."""
        if episode in self.episodes:
            self._drop(episode, "closed")

    def episode_of(self, info: RequestInfo) -> str:
        """The episode a request names, or a ToolError saying how to name one."""
        explicit = info.meta.get(EPISODE_META_KEY) or info.headers.get(EPISODE_HEADER)
        if explicit:
            if not isinstance(explicit, str) or not EPISODE_ID.fullmatch(explicit):
                raise ToolError(
                    "invalid_episode",
                    f"an episode id is 1 to {EPISODE_ID_MAX} letters, digits or _.:@+- characters; "
                    "use e.g. a uuid or a task id",
                )
            return explicit
        if info.connection is not None:
            try:
                episode = self._connections.get(info.connection)
                if episode is None:
                    episode = f"connection:{len(self._connections)}:{id(info.connection)}"
                    self._connections[info.connection] = episode
                    weakref.finalize(info.connection, self.close, episode)
                return episode
            except TypeError:
                logger.debug("connection object cannot be tracked")
        if self.anonymous == "default":
            return DEFAULT_EPISODE
        raise ToolError(
            "episode_required",
            f'this server is shared by many clients: name your episode with _meta {{"{EPISODE_META_KEY}": "<id>"}} '
            f"or the HTTP header X-Envforge-Episode: <id>, so no two clients share one state",
        )

    async def _list_tools(self) -> list[dict[str, Any]]:
        return self._tool_specs

    async def _call_tool(self, name: str, arguments: ToolArguments, info: RequestInfo) -> tuple[bool, ToolResult]:
        try:
            session = self.live_session(self.episode_of(info))
        except ToolError as error:
            error.tool = shown_name(name)
            return False, error.to_dict()
        return session.call_tool(name, arguments)


def unreadable_reply(item: object) -> SessionMessage | None:
    """The JSON-RPC error for a request the SDK could not read, or None when it has no id to answer.

    The mcp stdio transport parses each line strictly and drops one that fails (a `\\ud800` escape, `params`
    that are a list), so its client waited out its own timeout. The request's id is recovered from the
    validation error (Python's own parser accepts the lone surrogate) and answered."""
    if not isinstance(item, ValidationError):
        return None
    errors = item.errors()
    raw = next((error["input"] for error in errors if error["type"] == "json_invalid"), None)
    surrogate = isinstance(raw, str | bytes)
    if surrogate:
        try:
            request = json.loads(raw)  # type: ignore[arg-type]
        except ValueError:
            return None
    else:
        request = next((e["input"] for e in errors if isinstance(e["input"], dict) and "method" in e["input"]), None)
    if not isinstance(request, dict) or not isinstance(request.get("id"), str | int) or "method" not in request:
        return None
    if surrogate:
        error = ErrorData(
            code=INVALID_PARAMS,
            message="the request holds a lone surrogate (\\ud800-\\udfff without its pair), which is not Unicode "
            "text; send valid text",
        )
    else:
        first = errors[0]
        where = ".".join(str(part) for part in first["loc"][1:]) or "the message"
        error = ErrorData(
            code=INVALID_REQUEST,
            message=f"the request does not fit JSON-RPC 2.0 and MCP: {where}: {first['msg']}; fix it and resend",
        )
    return SessionMessage(JSONRPCError(jsonrpc="2.0", id=request["id"], error=error))


def serve_stdio(
    env: Environment, *, max_episodes: int = DEFAULT_MAX_EPISODES, idle_timeout: float | None = None
) -> None:
    """Serve one environment to one client over stdio until the client closes the pipe."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = EnvServer(env, max_episodes=max_episodes, idle_timeout=idle_timeout, anonymous="default")

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            relay_writer, relay_reader = anyio.create_memory_object_stream[SessionMessage | Exception](0)

            async def relay() -> None:
                async with relay_writer:
                    async for item in read_stream:
                        reply = unreadable_reply(item)
                        if reply is not None:
                            await write_stream.send(reply)
                        else:
                            await relay_writer.send(item)

            async with anyio.create_task_group() as tasks:
                tasks.start_soon(relay)
                await server.server.run(relay_reader, write_stream, server.server.create_initialization_options())

    anyio.run(run)

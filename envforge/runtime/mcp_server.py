"""The environment as an MCP server: many isolated episodes in one process, held in one `EpisodeStore`.

An episode is chosen, in order, by the request's `_meta["envforge/episode"]` or the HTTP header
`X-Envforge-Episode`. A request that names neither is refused with `episode_required` when the server is shared
(streamable HTTP, or in process), since mcp 2.x requests in the default mode are self-contained and two such
clients would otherwise land in one state and see each other's writes; an MCP user expects either isolation or a
clear error, never silent sharing. Over stdio a process serves one client, so a request naming none runs in the
default episode (`stdio_env_server`), opened at start: for a task when one is given, else free.

The harness creates each episode (`harness.py`, over HTTP `POST /harness/episodes`, which a stdio server also
answers when it is given a harness port): one made for a task acts for the task's person, so a call that writes
another person's row gets the structured ownership error. A call naming an episode the harness never created is
refused with `episode_unknown`, unless the server allows free episodes (stdio without a task, or
`serve --free-episodes`): then it starts a free one, and handshake-era clients of a shared server that name none
get one per connection. One the store dropped (its cap, the idle timeout, or the harness closing it) answers
`episode_ended` until the harness resets it, never a fresh state that looks like the old one. Reset, state and
verdicts are harness operations, never tools an agent can call.
"""

from __future__ import annotations

import json
import logging
import weakref
from typing import Any, Literal, Unpack

from mcp.shared.message import SessionMessage
from mcp.types import INVALID_PARAMS, INVALID_REQUEST, ErrorData, JSONRPCError
from pydantic import ValidationError

from envforge.ir.serving import DEFAULT_MAX_EPISODES
from envforge.ir.tasks import TaskSpec
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.dispatch import shown_name
from envforge.runtime.environment import Environment
from envforge.runtime.episode_store import (
    BAD_EPISODE_ID,
    EPISODE_ID,
    EpisodeStore,
    StoreLimits,
)
from envforge.runtime.errors import ToolError
from envforge.runtime.mcp_compat import RequestInfo, make_server
from envforge.runtime.tool_annotations import annotate_tools
from envforge.version import __version__

logger = logging.getLogger(__name__)

EPISODE_META_KEY = "envforge/episode"
EPISODE_HEADER = "x-envforge-episode"
DEFAULT_EPISODE = "default"

Anonymous = Literal["refuse", "default"]


class EnvServer:
    """The MCP server of one environment, serving the episodes of its store."""

    def __init__(self, env: Environment, *, anonymous: Anonymous = "refuse", **limits: Unpack[StoreLimits]) -> None:
        self.env = env
        self.episodes = EpisodeStore(env, **limits)
        self.anonymous = anonymous
        """What a request that names no episode gets: refused, or the one default episode (stdio)."""
        self._connections: weakref.WeakKeyDictionary[object, str] = weakref.WeakKeyDictionary()
        annotated = annotate_tools(env.blueprint, env.toolgraph.tools)
        self._tool_specs = [
            {
                "name": tool.name,
                "description": tool.description,
                "inputSchema": tool.parameters,
                "outputSchema": tool.returns,
                **annotated[tool.name],
            }
            for tool in env.toolgraph.tools
        ]
        self.server = make_server(
            f"envforge-{env.blueprint.domain}", __version__, env.policy, self._list_tools, self._call_tool
        )

    def episode_of(self, info: RequestInfo) -> str:
        """The episode a request names, or a ToolError saying how to name one."""
        explicit = info.meta.get(EPISODE_META_KEY) or info.headers.get(EPISODE_HEADER)
        if explicit:
            if not isinstance(explicit, str) or not EPISODE_ID.fullmatch(explicit):
                raise ToolError("invalid_episode", BAD_EPISODE_ID)
            return explicit
        # A stdio process has one client, so its one connection needs no episode of its own.
        if self.anonymous == "default":
            return DEFAULT_EPISODE
        if info.connection is not None and self.episodes.free_episodes:
            try:
                episode = self._connections.get(info.connection)
                if episode is None:
                    episode = f"connection:{len(self._connections)}:{id(info.connection)}"
                    self._connections[info.connection] = episode
                    weakref.finalize(info.connection, self.episodes.close, episode)
                return episode
            except TypeError:
                logger.debug("connection object cannot be tracked")
        raise ToolError(
            "episode_required",
            f"this server is shared by many clients: name the episode the harness created for you with _meta "
            f'{{"{EPISODE_META_KEY}": "<id>"}} or the HTTP header X-Envforge-Episode: <id>, so no two clients '
            "share one state",
        )

    async def _list_tools(self) -> list[dict[str, Any]]:
        return self._tool_specs

    async def _call_tool(self, name: str, arguments: ToolArguments, info: RequestInfo) -> tuple[bool, ToolResult]:
        try:
            episode = self.episodes.for_call(self.episode_of(info))
        except ToolError as error:
            error.tool = shown_name(name)
            return False, error.to_dict()
        return episode.call(name, arguments)


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


def stdio_env_server(
    env: Environment,
    task: TaskSpec | None = None,
    *,
    free_episodes: bool = False,
    max_episodes: int = DEFAULT_MAX_EPISODES,
    idle_timeout: float | None = None,
) -> EnvServer:
    """The server of one stdio client, whose requests that name no episode run in the default episode, opened
    here: for `task` (acting for its person), or free without one. Without a task the client may also start free
    episodes by naming them (the process is its alone); with one, only if `free_episodes`, so that otherwise every
    episode it names is one the harness created."""
    server = EnvServer(
        env,
        anonymous="default",
        free_episodes=free_episodes or task is None,
        max_episodes=max_episodes,
        idle_timeout=idle_timeout,
    )
    if task is None:
        server.episodes.open_free(DEFAULT_EPISODE)
    else:
        server.episodes.open_task(task, DEFAULT_EPISODE)
    return server


async def run_stdio(server: EnvServer) -> None:
    """Serve `server` to the client on this process's stdin and stdout until it closes the pipe."""
    import anyio
    from mcp.server.stdio import stdio_server

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


def serve_stdio(
    env: Environment, *, max_episodes: int = DEFAULT_MAX_EPISODES, idle_timeout: float | None = None
) -> None:
    """Serve one environment to one client over stdio until the client closes the pipe, in a free default episode
    (an exported wheel's server; `envforge serve --transport stdio` can bind it to a task and add a harness)."""
    import anyio

    anyio.run(run_stdio, stdio_env_server(env, max_episodes=max_episodes, idle_timeout=idle_timeout))

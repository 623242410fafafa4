"""The environment as an MCP server: many isolated episodes in one process.

An episode is chosen, in order, by the request's `_meta["envforge/episode"]`, the HTTP header
`X-Envforge-Episode`, the client's connection (handshake-era clients), or else one default episode
(right for stdio, where a process serves one client). Reset and state inspection are harness
operations on `EnvServer`, never tools an agent can call.
"""

from __future__ import annotations

import logging
import weakref
from collections import OrderedDict
from typing import Any

from envforge import __version__
from envforge.runtime.environment import Environment
from envforge.runtime.mcp_compat import RequestInfo, make_server
from envforge.runtime.session import Session

logger = logging.getLogger(__name__)

EPISODE_META_KEY = "envforge/episode"
EPISODE_HEADER = "x-envforge-episode"
DEFAULT_EPISODE = "default"
DEFAULT_MAX_EPISODES = 2000


class EnvServer:
    """Owns the episodes of one environment and the MCP server that serves them."""

    def __init__(self, env: Environment, *, max_episodes: int = DEFAULT_MAX_EPISODES) -> None:
        self.env = env
        self.max_episodes = max_episodes
        self.episodes: OrderedDict[str, Session] = OrderedDict()
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

    def session(self, episode: str = DEFAULT_EPISODE) -> Session:
        """The episode's session, created from the template on first use."""
        session = self.episodes.get(episode)
        if session is None:
            if len(self.episodes) >= self.max_episodes:
                evicted, old = self.episodes.popitem(last=False)
                old.close()
                logger.warning(
                    "episode limit %d reached; dropped the least recent episode %s",
                    self.max_episodes,
                    evicted,
                )
            session = Session(self.env)
            self.episodes[episode] = session
        else:
            self.episodes.move_to_end(episode)
        return session

    def act_for(self, episode: str, person: str | None) -> None:
        """Harness operation: bind the episode to the person its task serves (None: no ownership check)."""
        self.session(episode).act_for(person)

    def reset(self, episode: str = DEFAULT_EPISODE) -> None:
        """Harness operation: put the episode back to the initial state."""
        self.session(episode).reset()

    def close(self, episode: str) -> None:
        """Harness operation: forget an episode."""
        session = self.episodes.pop(episode, None)
        if session is not None:
            session.close()

    def episode_of(self, info: RequestInfo) -> str:
        explicit = info.meta.get(EPISODE_META_KEY) or info.headers.get(EPISODE_HEADER)
        if explicit:
            return str(explicit)
        if info.connection is not None:
            try:
                episode = self._connections.get(info.connection)
                if episode is None:
                    episode = f"connection:{len(self._connections)}:{id(info.connection)}"
                    self._connections[info.connection] = episode
                    weakref.finalize(info.connection, self.close, episode)
                return episode
            except TypeError:
                logger.debug("connection object cannot be tracked; using the default episode")
        return DEFAULT_EPISODE

    async def _list_tools(self) -> list[dict[str, Any]]:
        return self._tool_specs

    async def _call_tool(self, name: str, arguments: dict[str, Any], info: RequestInfo) -> tuple[bool, dict[str, Any]]:
        return self.session(self.episode_of(info)).call_tool(name, arguments)


def serve_stdio(env: Environment) -> None:
    """Serve one environment to one client over stdio until the client closes the pipe."""
    import anyio
    from mcp.server.stdio import stdio_server

    server = EnvServer(env)

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.server.run(read_stream, write_stream, server.server.create_initialization_options())

    anyio.run(run)

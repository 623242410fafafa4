"""The harness API beside a stdio MCP server (`serve --transport stdio --harness-port N`): the routes every HTTP
server mounts (`harness_routes.py`), over the stdio server's own episode store, so the harness can reset the
stdio client's episode, read its state and diff, judge it with the agent's messages, list and close it.

uvicorn runs in the stdio server's event loop. The store holds no lock: one loop means it is only ever touched
from one thread, between awaits, exactly as on the streamable HTTP server, whose /mcp and harness routes share
a loop too.
"""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager

import anyio
import uvicorn
from starlette.applications import Starlette

from envforge.runtime.episode import EnvPackage
from envforge.runtime.harness import Harness
from envforge.runtime.harness_routes import harness_routes
from envforge.runtime.mcp_server import EnvServer, run_stdio


class _BesideStdio(uvicorn.Server):
    """uvicorn in a process a stdio server owns. It leaves the process's signals alone, so Ctrl-C ends the
    process as it ends a stdio server alone, instead of stopping the harness API and leaving stdio serving."""

    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


async def serve_stdio_with_harness(server: EnvServer, package: EnvPackage, token: str, listener: socket.socket) -> None:
    """Serve the stdio client until it closes the pipe, and the harness API on `listener` until then."""
    app = Starlette(routes=harness_routes(Harness(package, server.episodes), token))
    # Without a logging config of uvicorn's own, whose access log writes to stdout: the stdio client's pipe, which
    # mcp 2.x moves aside while it serves but mcp 1.x does not.
    config = uvicorn.Config(app, log_config=None, log_level="warning", access_log=False, lifespan="off")
    http = _BesideStdio(config)
    async with anyio.create_task_group() as tasks:
        tasks.start_soon(http.serve, [listener])
        await run_stdio(server)
        http.should_exit = True

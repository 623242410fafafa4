"""A package served until interrupted: over MCP (stdio, or streamable HTTP at /mcp), or its web or phone app.

Over stdio the one client's default episode is the task's (`--task`), acting for its person, or a free one;
`--harness-port` adds the harness API over HTTP on the same episodes (`harness_channel.py`). Over HTTP the
harness proves itself with a bearer token (`harness_auth.py`), chosen in ENVFORGE_HARNESS_TOKEN or made here;
what the user must read (a token they did not choose, the address served) goes to `announce`, which the caller
prints (on stderr: over stdio, stdout carries only MCP's JSON-RPC).
"""

from __future__ import annotations

import os
import secrets
import socket
from collections.abc import Callable
from pathlib import Path

from envforge.errors import PackageError, UserInputError
from envforge.ir.serving import ServeOptions
from envforge.ir.uitasks import AppKind
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package

TOKEN_VARIABLE = "ENVFORGE_HARNESS_TOKEN"


def harness_token() -> str:
    """The token from ENVFORGE_HARNESS_TOKEN, or a random one (see `announce_token`); an empty one is refused."""
    chosen = os.environ.get(TOKEN_VARIABLE)
    if chosen is None:
        return secrets.token_urlsafe(24)
    if not chosen.strip() or chosen != chosen.strip():
        raise UserInputError(
            f"{TOKEN_VARIABLE} is set but empty or padded with spaces; set it to a token "
            f"(e.g. `export {TOKEN_VARIABLE}=$(openssl rand -hex 16)`) or unset it for a random one"
        )
    return chosen


def announce_token(token: str, announce: Callable[[str], None]) -> None:
    """Show a token the user did not choose, once the server is sure to start: the harness needs it."""
    if TOKEN_VARIABLE not in os.environ:
        announce(f"harness token (set {TOKEN_VARIABLE} to choose it): {token}")


def bind_listener(host: str, port: int) -> socket.socket:
    """A listening TCP socket whose connections send each response at once (TCP_NODELAY).

    asyncio turns Nagle's algorithm off only on sockets whose protocol is IPPROTO_TCP, which those of
    `socket.create_server` are not; with it on, a response written in two parts waits for the client's
    delayed ACK, about 40 ms per request on a kept-alive connection. Accepted sockets inherit the protocol."""
    family, kind, protocol, _, address = socket.getaddrinfo(
        host, port, type=socket.SOCK_STREAM, proto=socket.IPPROTO_TCP, flags=socket.AI_PASSIVE
    )[0]
    listener = socket.socket(family, kind, protocol)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        listener.bind(address)
        listener.listen(socket.SOMAXCONN)
    except OSError as exc:
        listener.close()
        raise UserInputError(f"cannot listen on {host}:{port}: {exc.strerror}; pick another --host or --port") from None
    return listener


def serve_package(package: Path, options: ServeOptions, announce: Callable[[str], None]) -> None:
    """The package's app when `options.app` names one, else the package over MCP, until interrupted."""
    if options.app is None and options.transport == "stdio":
        serve_stdio_package(package, options, announce)
        return
    if options.task is not None:
        raise UserInputError(
            "--task is for --transport stdio, whose one client has one default episode; over HTTP the harness "
            'creates an episode per run with POST /harness/episodes {"task": "<task id>"}'
        )
    if options.harness_port is not None:
        raise UserInputError("--harness-port is for --transport stdio; over HTTP the harness API is served at --port")
    if options.app is None:
        serve_mcp(package, options, announce)
        return
    if options.free_episodes:
        raise UserInputError("--free-episodes is for MCP; an app's episodes are made by the harness, free or not")
    serve_app(
        package,
        app=options.app,
        host=options.host,
        port=options.port,
        max_episodes=options.max_episodes,
        idle_timeout=options.idle_timeout,
        announce=announce,
    )


def serve_stdio_package(package: Path, options: ServeOptions, announce: Callable[[str], None]) -> None:
    """One client over stdio until it closes the pipe, its requests that name no episode in the default one:
    created for `options.task`, or free; with `options.harness_port`, the harness API over HTTP beside it."""
    # Imported here: `mcp` takes a third of a second to import, which serving an app never needs.
    import anyio

    from envforge.runtime.mcp_server import DEFAULT_EPISODE, run_stdio, stdio_env_server

    loaded = load_package(open_package(package))
    task = None
    if options.task is not None:
        try:
            task = loaded.task(options.task)
        except PackageError as error:
            raise UserInputError(f"--task: {error}") from None
    server = stdio_env_server(
        loaded.env,
        task,
        free_episodes=options.free_episodes,
        max_episodes=options.max_episodes,
        idle_timeout=options.idle_timeout,
    )
    if options.harness_port is None:
        anyio.run(run_stdio, server)
        return
    from envforge.runtime.harness_channel import serve_stdio_with_harness

    token = harness_token()
    listener = bind_listener(options.host, options.harness_port)
    announce_token(token, announce)
    url = f"http://{options.host}:{listener.getsockname()[1]}/harness/episodes"
    default = f"'{DEFAULT_EPISODE}', for task {task.id}" if task is not None else f"'{DEFAULT_EPISODE}', free"
    announce(f"serving {loaded.env_id} over stdio; harness API at {url} (the client's episode: {default})")
    anyio.run(serve_stdio_with_harness, server, loaded, token, listener)


def serve_mcp(package: Path, options: ServeOptions, announce: Callable[[str], None]) -> None:
    """Many clients over streamable HTTP until interrupted, each in an episode the harness created (or, with
    `free_episodes`, one a client names)."""
    from envforge.runtime.mcp_compat import MCP_MAJOR
    from envforge.runtime.mcp_server import EnvServer

    max_episodes, idle_timeout = options.max_episodes, options.idle_timeout
    if MCP_MAJOR < 2:
        raise UserInputError("--transport http needs mcp 2.x; install it or use --transport stdio")
    token = harness_token()
    loaded = load_package(open_package(package))
    server = EnvServer(
        loaded.env, max_episodes=max_episodes, idle_timeout=idle_timeout, free_episodes=options.free_episodes
    )
    import uvicorn

    from envforge.runtime.harness import Harness
    from envforge.runtime.harness_routes import harness_routes

    announce_token(token, announce)
    routes = harness_routes(Harness(loaded, server.episodes), token)
    app = server.server.streamable_http_app(host=options.host, custom_starlette_routes=routes)
    # Bind before announcing, so a client that reads the URL can connect at once (port 0 = any free port).
    listener = bind_listener(options.host, options.port)
    bound_port = listener.getsockname()[1]
    announce(f"serving {server.env.env_id} at http://{options.host}:{bound_port}/mcp")
    uvicorn.Server(uvicorn.Config(app, log_level="warning")).run(sockets=[listener])


def serve_app(
    package: Path,
    *,
    app: AppKind,
    host: str,
    port: int,
    max_episodes: int,
    idle_timeout: float | None,
    announce: Callable[[str], None],
) -> None:
    """The web or phone app over many isolated episodes, until interrupted; the harness creates them through its API."""
    import uvicorn

    from envforge.runtime.apps.server import AppServer

    token = harness_token()
    loaded = load_package(open_package(package))
    server = AppServer(loaded, app, token, max_episodes=max_episodes, idle_timeout=idle_timeout)
    announce_token(token, announce)
    listener = bind_listener(host, port)
    bound_port = listener.getsockname()[1]
    url = f"http://{host}:{bound_port}"
    announce(
        f"serving the {app} app of {server.package.env_id} at {url}; "
        f"create an episode with: curl -X POST -H 'Authorization: Bearer <token>' -d '{{\"task\": \"<task id>\"}}' "
        f"{url}/harness/episodes"
    )
    uvicorn.Server(uvicorn.Config(server.app(), log_level="warning")).run(sockets=[listener])

"""`envforge serve`: a package over MCP, or its web or phone app."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from envforge.cli.options import AppKind, Host, Package, Port

DEFAULT_MAX_EPISODES = 2000
"""envforge.runtime.mcp_server's default, repeated so the CLI starts without importing `mcp`."""


def serve(
    package: Package,
    transport: Annotated[Literal["stdio", "http"], typer.Option("--transport", help="stdio or http.")] = "stdio",
    host: Host = "127.0.0.1",
    port: Port = 8765,
    app_kind: Annotated[
        AppKind | None, typer.Option("--app", help="Serve the web or phone app instead of MCP (HTTP; see the README).")
    ] = None,
    max_episodes: Annotated[
        int,
        typer.Option(
            "--max-episodes", min=1, max=1_000_000, help="Live MCP episodes kept; past it the least recent is dropped."
        ),
    ] = DEFAULT_MAX_EPISODES,
    idle_timeout: Annotated[
        float | None,
        typer.Option("--idle-timeout", min=1, help="Seconds after which an MCP episode without calls is dropped."),
    ] = None,
) -> None:
    """Serve an environment over MCP (stdio, or streamable HTTP at /mcp), or its web or phone app (--app)."""
    from envforge.cli.output import announce
    from envforge.runtime.serve import serve_app, serve_mcp

    if app_kind is not None:
        serve_app(package, app=app_kind, host=host, port=port, announce=announce)
        return
    serve_mcp(
        package,
        transport=transport,
        host=host,
        port=port,
        max_episodes=max_episodes,
        idle_timeout=idle_timeout,
        announce=announce,
    )

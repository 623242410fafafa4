"""`envforge serve`: a package over MCP, or its web or phone app."""

from __future__ import annotations

from typing import Annotated, Literal

import typer

from envforge.cli.options import AppKind, Host, Package, Port


def serve(
    package: Package,
    transport: Annotated[Literal["stdio", "http"], typer.Option("--transport", help="stdio or http.")] = "stdio",
    host: Host = "127.0.0.1",
    port: Port = 8765,
    app_kind: Annotated[
        AppKind | None, typer.Option("--app", help="Serve the web or phone app instead of MCP (HTTP; see the README).")
    ] = None,
) -> None:
    """Serve an environment over MCP (stdio, or streamable HTTP at /mcp), or its web or phone app (--app)."""
    from envforge.cli.serving import run_app_server, run_server

    if app_kind is not None:
        run_app_server(package, app=app_kind, host=host, port=port)
        return
    run_server(package, transport=transport, host=host, port=port)

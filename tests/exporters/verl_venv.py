"""verl 0.9.1's own venv (verl pins transformers<5.11, which envforge's training extra does not meet), built once in
`.cache/verl/venv` and reused while its pins stay the same; the exported wheels are installed into it per test."""

from __future__ import annotations

import subprocess
from pathlib import Path

from tests.conftest import PIP_INSTALL
from tests.vllm_server import CACHE, PIP_TIMEOUT, pinned_venv

VERL = ["torch==2.13.0", "verl==0.9.1", "cachetools", "uvicorn", "fastapi"]
# verl's agent loop imports these from its `verl-core` extra; torch must be the CPU build.
CPU_TORCH = "torch==2.13.0+cpu"
VENV = CACHE / "verl" / "venv"


def constraints() -> Path:
    """The constraints file that keeps torch the CPU build in every install into the venv."""
    path = VENV.parent / "constraints.txt"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(CPU_TORCH + "\n", encoding="utf-8")
    return path


def verl_python() -> Path:
    """The python of verl's venv, built when missing or built with other pins."""

    def install(python: Path) -> None:
        command = [str(python), *PIP_INSTALL, "-c", str(constraints()), *VERL]
        subprocess.run(command, check=True, timeout=PIP_TIMEOUT)

    return pinned_venv(VENV, [*VERL, CPU_TORCH], install)

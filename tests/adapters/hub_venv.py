"""A venv of its own for a hub library (inspect_ai, OpenEnv), built with the exact pins of its pyproject extra.

The hubs pin what the dev lock pins differently (inspect-ai caps fsspec below the lock's, openenv-core pulls a
Gradio that caps Pillow below matplotlib's), so each gets `.cache/hubs/<extra>/venv` with envforge's own
dependencies and the extra's pins, reused while those stay the same. envforge itself comes from this checkout on
PYTHONPATH. When the venv cannot be built (no package index), the test fails under CI=true and is skipped elsewhere.
"""

from __future__ import annotations

import os
import subprocess
import tomllib
from pathlib import Path

from tests.conftest import PIP_INSTALL, REPO
from tests.vllm_server import CACHE, PIP_TIMEOUT, pinned_venv, unavailable


def hub_requirements(extra: str, pyproject: Path = REPO / "pyproject.toml") -> list[str]:
    """envforge's dependencies and the exact pins of the extra `extra`."""
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    return [*project["dependencies"], *project["optional-dependencies"][extra]]


def hub_python(extra: str) -> Path:
    """The python of the hub's venv, built when missing or built with other pins."""
    requirements = hub_requirements(extra)
    venv = CACHE / "hubs" / extra / "venv"

    def install(python: Path) -> None:
        command = [str(python), *PIP_INSTALL, *requirements]
        result = subprocess.run(command, capture_output=True, text=True, timeout=PIP_TIMEOUT, check=False)
        if result.returncode != 0:
            tail = " | ".join((result.stdout + result.stderr).strip().splitlines()[-4:])
            unavailable(f"`pip install` of the `{extra}` extra into {venv} failed (exit {result.returncode}): {tail}")

    return pinned_venv(venv, requirements, install)


def run_driver(extra: str, script: str, *args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """Run tests/adapters/`script` in the hub's venv with this checkout's envforge; its last line is its JSON."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    command = [str(hub_python(extra)), str(REPO / "tests" / "adapters" / script), *args]
    return subprocess.run(command, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout, check=False)

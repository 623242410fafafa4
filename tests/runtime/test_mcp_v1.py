"""The MCP server also works with the 1.x SDK (NeMo Gym and verifiers pin mcp<2)."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tests.conftest import PIP_INSTALL, REPO


def _requirements_without_mcp() -> list[str]:
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return [requirement for requirement in project["dependencies"] if not requirement.startswith("mcp")]


@pytest.mark.slow
def test_a_mcp_1x_client_and_server_serve_the_environment(tmp_path: Path, retail_package: Path) -> None:
    """Builds a virtual environment with mcp 1.x (from the package index) and envforge from this checkout."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    pip = [python, *PIP_INSTALL]
    subprocess.run([*pip, "mcp>=1.20,<2", *_requirements_without_mcp()], check=True, timeout=600)
    subprocess.run([*pip, "--no-deps", "-e", str(REPO)], check=True, timeout=300)
    version = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('mcp'))"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert version.stdout.startswith("1.")
    script = REPO / "tests" / "runtime" / "mcp_v1_client.py"
    result = subprocess.run(
        [python, str(script), str(retail_package)], cwd=REPO, capture_output=True, text=True, timeout=120, check=False
    )
    assert result.returncode == 0, result.stderr
    seen = json.loads(result.stdout.strip().splitlines()[-1])
    assert seen["instructions"] == (retail_package / "policy.md").read_text(encoding="utf-8")
    assert seen["tools"] >= 25
    assert seen["write_error"] is False and seen["status_after_write"] == "cancelled"
    assert seen["refused_error"] is True and seen["refused"]["error"]["code"] == "policy_violation"
    assert seen["refused_structured"] is None

"""The exported wheels installed into a fresh virtual environment, as a user installs them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import anyio
import mcp
import pytest
from mcp.client.stdio import StdioServerParameters

from envforge.exporters.run import export
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.conftest import PIP_INSTALL

HERE = Path(__file__).parent


@pytest.mark.slow
def test_wheels_install_into_a_fresh_venv_pass_check_env_and_serve_mcp(
    packages: dict[str, Path], tmp_path: Path
) -> None:
    """Installs the runtime's dependencies from the package index; envforge itself is not installed there."""
    export(list(packages.values()), tmp_path / "out", ["wheel"])
    wheels = tmp_path / "out" / "wheels"
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    pip = [python, *PIP_INSTALL, "--find-links", str(wheels)]
    subprocess.run(
        [*pip, *(f"envforge-env-{domain}" for domain in packages), "envforge-env-retail[mcp]"], check=True, timeout=600
    )

    result = subprocess.run(
        [python, str(HERE / "wheel_check.py"), *sorted(packages)],
        # A PYTHONPATH pointing at a checkout would hand the fresh venv the generator it must not have.
        env={name: value for name, value in os.environ.items() if name != "PYTHONPATH"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    summary = json.loads(result.stdout.strip().splitlines()[-1])
    assert summary["generator_importable"] is False
    for domain, path in packages.items():
        tasks = len(load_package(open_package(path)).tasks)
        assert summary["domains"][domain] == {"tasks": tasks, "passed": tasks}

    async def list_and_call() -> tuple[int, bool]:
        server = StdioServerParameters(command=str(venv / "bin" / "envforge-env-retail"), args=[])
        async with mcp.Client(server) as session:
            tools = (await session.list_tools()).tools
            read = await session.call_tool("list_customers", {"limit": 2})
            return len(tools), bool(read.structured_content and read.structured_content["items"])

    tool_count, read_ok = anyio.run(list_and_call)
    assert tool_count == len(load_package(open_package(packages["retail"])).env.toolgraph.tools) and read_ok

"""The official MCP Inspector CLI (a TypeScript SDK client) against `envforge serve` over stdio: it lists the
tools' annotations and shows a refused call's own error, where an error result with structured content once
failed its output-schema check instead ("data must have required property 'order'")."""

from __future__ import annotations

import fcntl
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from envforge.runtime.environment import Environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.session import Session
from tests.conftest import REPO
from tests.runtime.probes import first

INSPECTOR = "@modelcontextprotocol/inspector@2.12.0"
CACHE = REPO / ".cache" / "mcp-inspector-2.12.0"
TOOL_IS_ERROR = 5
"""The CLI's exit status when the tool answered with isError."""


@pytest.fixture(scope="module")
def inspector() -> Path:
    """The Inspector's CLI, installed by npm into the cache on first use."""
    npm = shutil.which("npm")
    if npm is None or shutil.which("node") is None:
        pytest.skip("the MCP Inspector CLI needs Node.js and npm on PATH: install them to run this test")
    binary = CACHE / "node_modules" / ".bin" / "mcp-inspector"
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / "install.lock").open("w") as lock:
        # A second pytest process waits here for the first one's install instead of racing it.
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not binary.exists():
            install = [npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "--loglevel=error", INSPECTOR]
            subprocess.run(install, check=True, capture_output=True, timeout=600)
    return binary


def inspect(inspector: Path, package: Path, *method: str) -> tuple[int, Any, str]:
    """(exit status, the JSON the CLI printed first, everything it printed) of one CLI run."""
    # The SDK hands a stdio server only a safe subset of the environment: name this checkout so it is the one served.
    server = [sys.executable, "-m", "envforge.cli.app", "serve", str(package), "--transport", "stdio"]
    command = [str(inspector), "--cli", "-e", f"PYTHONPATH={REPO}", *server, "--method", *method]
    done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, timeout=120, check=False)
    printed = done.stdout + done.stderr
    shown, _ = json.JSONDecoder().raw_decode(done.stdout.strip()) if done.stdout.strip().startswith("{") else ({}, 0)
    return done.returncode, shown, printed


@pytest.mark.slow
def test_the_inspector_cli_lists_the_tools_annotations(inspector: Path, retail_package: Path) -> None:
    status, shown, printed = inspect(inspector, retail_package, "tools/list")
    assert status == 0, printed
    tools = {tool["name"]: tool for tool in shown["tools"]}
    assert tools["get_order"]["annotations"] == {
        "title": "Get order",
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": False,
    }
    assert tools["cancel_order"]["title"] == "Cancel order"
    cancel = tools["cancel_order"]["annotations"]
    assert (cancel["readOnlyHint"], cancel["destructiveHint"], cancel["idempotentHint"]) == (False, True, True)


@pytest.mark.slow
def test_the_inspector_cli_shows_a_refused_calls_own_error(
    inspector: Path, retail_package: Path, retail_env: Environment
) -> None:
    session = Session(retail_env)
    delivered = first(session, "list_orders", status="delivered")["order_id"]
    _, in_process = session.call_tool("cancel_order", {"order_id": delivered, "reason": "other"})
    arguments = ["--tool-arg", f"order_id={delivered}", "--tool-arg", "reason=other"]
    status, shown, printed = inspect(inspector, retail_package, "tools/call", "--tool-name", "cancel_order", *arguments)
    assert status == TOOL_IS_ERROR, printed
    assert "output schema" not in printed and "must have required property" not in printed
    assert shown["isError"] is True and "structuredContent" not in shown
    error = json.loads(shown["content"][0]["text"])["error"]
    assert (error["code"], error["tool"]) == ("precondition_failed", "cancel_order")
    assert error == refusal_of(in_process)

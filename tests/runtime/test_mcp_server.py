"""A real MCP client session against the environment server: in-process, stdio and streamable HTTP."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, cast

import anyio
import httpx2
import mcp
import pytest
from mcp.client.stdio import StdioServerParameters
from mcp.types import RequestParamsMeta

from envforge.runtime.environment import load_environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import EPISODE_META_KEY, EnvServer
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from tests.conftest import BLUEPRINTS, REPO
from tests.runtime.probes import Probes, find_probes, first

DOMAINS = [path.stem for path in BLUEPRINTS]
MIN_TOOLS = 25
TOKEN = "test-harness-token"


def episode(name: str) -> RequestParamsMeta:
    return cast(RequestParamsMeta, {EPISODE_META_KEY: name})


@contextmanager
def http_server(package: Path, *options: str) -> Iterator[str]:
    """`envforge serve --transport http` on a free port; yields the MCP URL once it is listening."""
    env = {**os.environ, "ENVFORGE_HARNESS_TOKEN": TOKEN, "PYTHONUNBUFFERED": "1"}
    command = [sys.executable, "-m", "envforge.cli.app", "serve", str(package), "--transport", "http", "--port", "0"]
    command += options
    process = subprocess.Popen(command, cwd=REPO, env=env, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stderr is not None
        line = process.stderr.readline()
        assert " at http://" in line, line
        yield line.rsplit(" at ", 1)[1].strip()
    finally:
        process.kill()
        process.wait(timeout=30)


@asynccontextmanager
async def client(transport: str, package: Path, url: str | None) -> AsyncIterator[mcp.Client]:
    if transport == "inprocess":
        server = EnvServer(load_environment(open_package(package)))
        server.episodes.open_free("episode-1")
        target: Any = server.server
    elif transport == "stdio":
        target = StdioServerParameters(
            command=sys.executable,
            args=["-m", "envforge.cli.app", "serve", str(package), "--transport", "stdio"],
            cwd=str(REPO),
        )
    else:
        target = url
    async with mcp.Client(target) as session:
        yield session


async def exercise(session: mcp.Client, probes: Probes, name: str) -> dict[str, Any]:
    meta = episode(name)
    tools = (await session.list_tools()).tools
    read = await session.call_tool(*probes.read, meta=meta)
    # Probes were found on the initial state, so the refused call goes before the write.
    refused = await session.call_tool(*probes.policy_violation, meta=meta)
    write = await session.call_tool(*probes.write, meta=meta)
    return {"tools": tools, "read": read, "write": write, "refused": refused, "instructions": session.instructions}


def check_session(outcome: dict[str, Any], package: Path) -> None:
    tools = outcome["tools"]
    assert len(tools) >= MIN_TOOLS
    assert all(tool.input_schema["type"] == "object" and tool.description for tool in tools)
    assert not {"reset", "verify"} & {tool.name for tool in tools}
    assert not outcome["read"].is_error and outcome["read"].structured_content["items"]
    assert not outcome["write"].is_error, outcome["write"].structured_content
    refused = outcome["refused"]
    assert refused.is_error
    assert refusal_of(payload_of(refused))["code"] == "policy_violation"
    assert refusal_of(payload_of(refused))["policy"]
    assert outcome["instructions"] == (package / "policy.md").read_text()


@pytest.fixture(scope="module")
def probes(packages: dict[str, Path]) -> dict[str, Probes]:
    return {domain: find_probes(load_environment(open_package(packages[domain]))) for domain in DOMAINS}


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("transport", ["inprocess", "stdio", "http"])
def test_a_real_client_lists_tools_calls_read_and_write_and_sees_policy_errors(
    transport: str, domain: str, packages: dict[str, Path], probes: dict[str, Probes]
) -> None:
    package = packages[domain]

    async def run(url: str | None) -> dict[str, Any]:
        async with client(transport, package, url) as session:
            return await exercise(session, probes[domain], "episode-1")

    if transport == "http":
        with http_server(package) as url:
            created = harness_post(url, "/harness/episodes", {"free": True, "episode": "episode-1"})
            assert created.status_code == 201, created.text
            outcome = anyio.run(run, url)
    else:
        outcome = anyio.run(run, None)
    check_session(outcome, package)


def harness_post(url: str, path: str, body: dict[str, Any] | None = None) -> httpx2.Response:
    """A harness request to the server of the MCP endpoint `url`, with the token."""
    base = url.removesuffix("/mcp")
    return httpx2.post(f"{base}{path}", json=body or {}, headers={"Authorization": f"Bearer {TOKEN}"}, timeout=30)


def test_two_episodes_on_one_http_server_never_see_each_others_writes(retail_package: Path) -> None:
    order = first(Session(load_environment(open_package(retail_package))), "list_orders", status="pending")["order_id"]

    async def run(url: str) -> tuple[str, str, str]:
        for name in ("a", "b"):
            assert harness_post(url, "/harness/episodes", {"free": True, "episode": name}).status_code == 201
        async with mcp.Client(url) as first, mcp.Client(url) as second:
            await first.call_tool("cancel_order", {"order_id": order, "reason": "other"}, meta=episode("a"))
            mine = await first.call_tool("get_order", {"order_id": order}, meta=episode("a"))
            theirs = await second.call_tool("get_order", {"order_id": order}, meta=episode("b"))
        async with httpx2.AsyncClient() as http:
            base = url.removesuffix("/mcp")
            refused = await http.post(f"{base}/harness/episodes/a/reset")
            assert refused.status_code == 401
            reset = await http.post(f"{base}/harness/episodes/a/reset", headers={"Authorization": f"Bearer {TOKEN}"})
            assert reset.status_code == 200
        async with mcp.Client(url) as third:
            again = await third.call_tool("get_order", {"order_id": order}, meta=episode("a"))
        return (
            mine.structured_content["status"],
            theirs.structured_content["status"],
            again.structured_content["status"],
        )

    with http_server(retail_package) as url:
        assert anyio.run(run, url) == ("cancelled", "pending", "pending")


@pytest.mark.parametrize("mode", ["auto", "legacy"])
def test_two_clients_of_one_server_are_isolated_by_episode_or_by_connection(retail_package: Path, mode: str) -> None:
    # Connections make episodes only where clients may start their own: free episodes.
    server = EnvServer(load_environment(open_package(retail_package)), free_episodes=True)
    order = first(server.episodes.open_free("probe").session, "list_orders", status="pending")["order_id"]

    async def run() -> tuple[str, str]:
        # Handshake-era (legacy) clients are told apart by their connection; modern ones by episode id.
        first_meta = episode("one") if mode == "auto" else None
        second_meta = episode("two") if mode == "auto" else None
        async with mcp.Client(server.server, mode=mode) as first, mcp.Client(server.server, mode=mode) as second:
            await first.call_tool("cancel_order", {"order_id": order, "reason": "other"}, meta=first_meta)
            mine = await first.call_tool("get_order", {"order_id": order}, meta=first_meta)
            theirs = await second.call_tool("get_order", {"order_id": order}, meta=second_meta)
        return mine.structured_content["status"], theirs.structured_content["status"]

    assert anyio.run(run) == ("cancelled", "pending")


def test_the_harness_resets_an_episode_and_the_agent_cannot(retail_package: Path) -> None:
    server = EnvServer(load_environment(open_package(retail_package)))
    session = server.episodes.open_free("e1").session
    initial = session.state_hash()
    order = first(session, "list_orders", status="pending")["order_id"]
    session.call("cancel_order", {"order_id": order, "reason": "other"})
    assert server.episodes.get("e1").session.state_hash() != initial
    server.episodes.reset("e1")
    assert server.episodes.get("e1").session.state_hash() == initial
    ok, result = session.call_tool("reset", {})
    assert not ok and refusal_of(result)["code"] == "unknown_tool"

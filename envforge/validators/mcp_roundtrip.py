"""MCP round trip: a real MCP client sees the package's tools and policy, and its calls act as in-process calls do."""

from __future__ import annotations

import json
from typing import Any, cast

import anyio
import mcp
from mcp.types import RequestParamsMeta

from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import EPISODE_META_KEY, EnvServer
from envforge.runtime.session import Session
from envforge.validators.determinism import replay
from envforge.validators.loaded_package import LoadedPackage
from envforge.validators.results import ConformanceError

EPISODE = "envforge-check"
READ_EPISODE = "envforge-check-read"


def _round_trip_task(package: LoadedPackage) -> TaskSpec:
    """The first sampled task that writes (the state comparison then means something), else the first task."""
    if not package.sampled:
        raise ConformanceError("tasks.jsonl holds no task to replay through MCP")
    return next((task for task in package.sampled if task.kind != "read"), package.sampled[0])


def _read_call(package: LoadedPackage) -> ToolCall:
    tools = package.env.tools
    calls = (call for task in package.sampled for call in task.oracle if tools[call.name].kind == "read")
    found = next(calls, None)
    if found is None:
        raise ConformanceError("no sampled oracle makes a READ call to send through MCP")
    return found


def _listing_problems(package: LoadedPackage, listed: list[Any], instructions: str | None) -> list[str]:
    problems = []
    expected = {tool.name: tool.parameters for tool in package.env.toolgraph.tools}
    names = [tool.name for tool in listed]
    declared = [tool["name"] for tool in json.loads((package.path / "tools.json").read_bytes())["tools"]]
    if sorted(names) != sorted(expected):
        missing, extra = sorted(set(expected) - set(names)), sorted(set(names) - set(expected))
        problems.append(f"tools/list differs from toolgraph.json (missing {missing}, extra {extra})")
    if sorted(declared) != sorted(expected):
        problems.append(f"tools.json lists {len(declared)} tools, toolgraph.json {len(expected)}")
    problems.extend(
        f"{tool.name}: the input schema served differs from toolgraph.json"
        for tool in listed
        if tool.name in expected and tool.input_schema != expected[tool.name]
    )
    if instructions != package.env.policy:
        problems.append("the server's instructions differ from policy.md")
    return problems


def check_mcp_roundtrip(package: LoadedPackage) -> str:
    """List tools, make one READ call and replay one oracle through an in-process MCP client."""
    task, read = _round_trip_task(package), _read_call(package)
    server = EnvServer(package.env)
    episode, read_episode = server.episodes.open_free(EPISODE), server.episodes.open_free(READ_EPISODE)
    meta = cast(RequestParamsMeta, {EPISODE_META_KEY: EPISODE})
    read_meta = cast(RequestParamsMeta, {EPISODE_META_KEY: READ_EPISODE})

    async def talk() -> tuple[list[Any], str | None, Any, list[Any]]:
        async with mcp.Client(server.server) as client:
            listed = (await client.list_tools()).tools
            read_result = await client.call_tool(read.name, read.arguments, meta=read_meta)
            oracle_results = [await client.call_tool(call.name, call.arguments, meta=meta) for call in task.oracle]
            return listed, client.instructions, read_result, oracle_results

    listed, instructions, read_result, oracle_results = anyio.run(talk)
    problems = _listing_problems(package, listed, instructions)
    session = Session(package.env)
    try:
        ok, expected = session.call_tool(read.name, read.arguments)
        if read_result.is_error == ok or payload_of(read_result) != json.loads(json.dumps(expected)):
            problems.append(f"{read.name}: the MCP result differs from the in-process call's")
        state_hash, outcomes = replay(session, task)
    finally:
        session.close()
    served = [not result.is_error for result in oracle_results]
    if served != [ok for ok, _ in outcomes]:
        problems.append(
            f"{task.id}: oracle calls through MCP succeeded {served}, in process {[ok for ok, _ in outcomes]}"
        )
    served_hash = episode.session.state_hash()
    server.episodes.close(episode.id)
    server.episodes.close(read_episode.id)
    if served_hash != state_hash:
        problems.append(f"{task.id}: the oracle through MCP ended in a different state than in process")
    if problems:
        raise ConformanceError("the MCP server disagrees with the package", problems)
    return f"{len(listed)} tools listed; {read.name} and the {len(task.oracle)}-call oracle of {task.id} matched in process"

"""What MCP clients other than envforge's own rely on: tool annotations, and refusals that every SDK reads as the
tool's own error (the Python SDK client here, over stdio and streamable HTTP; the TypeScript one in
test_mcp_inspector.py)."""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any, cast

import anyio
import mcp
import pytest
from jsonschema import Draft202012Validator
from mcp.client.stdio import StdioServerParameters
from mcp.types import CallToolResult, RequestParamsMeta, Tool

from envforge.runtime.environment import Environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import EPISODE_META_KEY
from envforge.runtime.session import Session
from envforge.runtime.tool_annotations import annotate_tools
from tests.conftest import REPO
from tests.runtime.probes import find_probes, first
from tests.runtime.test_mcp_server import http_server

HINTS = {
    # tool: (readOnlyHint, destructiveHint, idempotentHint)
    "get_order": (True, False, True),
    "list_orders": (True, False, True),
    # A cancelled order stays cancelled, and a second cancel is refused by the tool's own precondition.
    "cancel_order": (False, True, True),
    # An email set twice is the same email; another call can set the old one back.
    "update_email": (False, False, True),
    # Credit adds up with each call.
    "grant_store_credit": (False, False, False),
    # A new address row per call.
    "add_address": (False, False, False),
}


def hints(tool: Tool) -> tuple[bool | None, bool | None, bool | None]:
    assert tool.annotations is not None, tool.name
    annotations = tool.annotations
    return annotations.read_only_hint, annotations.destructive_hint, annotations.idempotent_hint


def test_annotations_follow_what_the_blueprint_says_each_tool_does(retail_env: Environment) -> None:
    annotated = annotate_tools(retail_env.blueprint, retail_env.toolgraph.tools)
    seen = {
        name: tuple(
            annotated[name]["annotations"][hint] for hint in ("readOnlyHint", "destructiveHint", "idempotentHint")
        )
        for name in HINTS
    }
    assert seen == HINTS
    assert annotated["find_customer_by_email"]["title"] == "Find customer by email"
    assert all(entry["annotations"]["openWorldHint"] is False for entry in annotated.values())
    assert {tool.name for tool in retail_env.toolgraph.tools} == set(annotated)


def refused_calls(env: Environment) -> dict[str, tuple[str, dict[str, Any]]]:
    """Calls the server refuses, by the code each is refused with."""
    session = Session(env)
    delivered = first(session, "list_orders", status="delivered")["order_id"]
    return {
        "policy_violation": find_probes(env).policy_violation,
        "precondition_failed": ("cancel_order", {"order_id": delivered, "reason": "other"}),
        "invalid_arguments": ("get_order", {"order_id": 5}),
    }


def check_as_typescript_would(tool: Tool, result: CallToolResult) -> None:
    """The TypeScript SDK client checks any structured content against the tool's output schema, error or not."""
    if result.structured_content is not None:
        assert tool.output_schema is not None
        problems = [
            error.message for error in Draft202012Validator(tool.output_schema).iter_errors(result.structured_content)
        ]
        assert not problems, (tool.name, problems)


async def talk(target: Any, meta: RequestParamsMeta | None, calls: dict[str, tuple[str, dict[str, Any]]]) -> Any:
    async with mcp.Client(target) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        read = await client.call_tool("list_orders", {"limit": 1}, meta=meta)
        refused = {
            code: await client.call_tool(name, arguments, meta=meta) for code, (name, arguments) in calls.items()
        }
        return tools, read, refused


@pytest.mark.parametrize("transport", ["stdio", "http"])
def test_a_python_client_sees_annotations_and_each_refusal_as_the_tools_own_error(
    transport: str, retail_package: Path, retail_env: Environment, caplog: pytest.LogCaptureFixture
) -> None:
    calls = refused_calls(retail_env)
    caplog.set_level(logging.WARNING)
    if transport == "stdio":
        command = ["-m", "envforge.cli.app", "serve", str(retail_package), "--transport", "stdio"]
        target = StdioServerParameters(command=sys.executable, args=command, cwd=str(REPO))
        tools, read, refused = anyio.run(talk, target, None, calls)
    else:
        with http_server(retail_package, "--free-episodes") as url:
            tools, read, refused = anyio.run(talk, url, cast(RequestParamsMeta, {EPISODE_META_KEY: "e1"}), calls)

    annotated = annotate_tools(retail_env.blueprint, retail_env.toolgraph.tools)
    assert {name: hints(tool) for name, tool in tools.items() if name in HINTS} == HINTS
    assert all(tool.title == annotated[name]["title"] for name, tool in tools.items())
    assert not read.is_error and read.structured_content is not None
    check_as_typescript_would(tools["list_orders"], read)
    for code, (name, arguments) in calls.items():
        result = refused[code]
        assert result.is_error and result.structured_content is None, (code, result)
        check_as_typescript_would(tools[name], result)
        error = refusal_of(payload_of(result))
        assert (error["code"], error["tool"]) == (code, name)
        ok, in_process = Session(retail_env).call_tool(name, arguments)
        assert not ok and refusal_of(in_process)["message"] == error["message"]
    assert not [record.getMessage() for record in caplog.records if record.levelno >= logging.WARNING]

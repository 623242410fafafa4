"""A small shim over the official `mcp` SDK so one server serves both majors (2.x first, 1.x too).

Only the low-level server is used: tools come from tool specs with their own JSON Schemas, not
from Python signatures. Wire-format (camelCase) dicts validate into the types of both majors.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from importlib.metadata import version
from typing import Any, cast

import mcp.types as mcp_types
from mcp.server.lowlevel import Server

from envforge.ir.toolspec import ToolArguments, ToolResult

MCP_MAJOR = int(version("mcp").split(".")[0])

ListTools = Callable[[], Awaitable[list[dict[str, Any]]]]
CallTool = Callable[[str, ToolArguments, "RequestInfo"], Awaitable[tuple[bool, ToolResult]]]
"""Returns (ok, result or `{"error": ...}`): a result is the call's structured content, an error its text."""


class RequestInfo:
    """What the server knows about who is calling: request `_meta`, connection, HTTP headers."""

    def __init__(self, meta: dict[str, Any], connection: object | None, headers: dict[str, str]) -> None:
        self.meta = meta
        self.connection = connection
        self.headers = headers


def _meta_dict(meta: Any) -> dict[str, Any]:
    if meta is None:
        return {}
    if isinstance(meta, dict):
        return meta
    dumped = meta.model_dump(by_alias=True, exclude_none=True) if hasattr(meta, "model_dump") else {}
    return dict(dumped)


def _headers(request: Any) -> dict[str, str]:
    headers = getattr(request, "headers", None)
    return {key.lower(): value for key, value in headers.items()} if headers is not None else {}


def _persistent_connection(ctx: Any) -> object | None:
    # Handshake-era clients have one connection each; modern-era requests are self-contained, so
    # their connection identifies nothing. mcp 2.x builds a ServerSession per request around the
    # connection (kept privately); mcp 1.x keeps one ServerSession per connection.
    protocol = getattr(ctx, "protocol_version", None)
    if protocol is not None and protocol >= "2026-07-28":
        return None
    session = getattr(ctx, "session", None)
    return getattr(session, "_connection", session)


def _tool(spec: dict[str, Any]) -> mcp_types.Tool:
    return mcp_types.Tool.model_validate(spec)


def _result(outcome: tuple[bool, ToolResult]) -> mcp_types.CallToolResult:
    ok, payload = outcome
    content = [{"type": "text", "text": json.dumps(payload, ensure_ascii=False)}]
    if ok:
        return mcp_types.CallToolResult.model_validate({"content": content, "structuredContent": payload})
    # A refusal is not the tool's output: clients (the TypeScript SDK's among them) check any structured content
    # against the tool's output schema even when isError is set, so the error travels as its JSON text alone.
    return mcp_types.CallToolResult.model_validate({"content": content, "isError": True})


def payload_of(result: mcp_types.CallToolResult) -> ToolResult:
    """What a call answered through an MCP client, as `Session.call_tool` answers it: a success's structured
    content, or the `{"error": {...}}` that an error result carries as its text (read it with `refusal_of`)."""
    if not result.is_error and result.structured_content is not None:
        return cast(ToolResult, result.structured_content)
    text = next(block.text for block in result.content if isinstance(block, mcp_types.TextContent))
    return cast(ToolResult, json.loads(text))


def make_server(
    name: str, server_version: str, instructions: str, list_tools: ListTools, call_tool: CallTool
) -> Server[Any]:
    """A low-level MCP server whose tools are served by the two callbacks."""
    if MCP_MAJOR >= 2:

        async def on_list_tools(ctx: Any, params: Any) -> mcp_types.ListToolsResult:
            return mcp_types.ListToolsResult(tools=[_tool(spec) for spec in await list_tools()])

        async def on_call_tool(ctx: Any, params: Any) -> mcp_types.CallToolResult:
            meta = _meta_dict(getattr(ctx, "meta", None))
            info = RequestInfo(meta, _persistent_connection(ctx), _headers(getattr(ctx, "request", None)))
            return _result(await call_tool(params.name, dict(params.arguments or {}), info))

        return Server(
            name,
            version=server_version,
            instructions=instructions,
            on_list_tools=on_list_tools,
            on_call_tool=on_call_tool,
        )

    server: Any = Server(name, version=server_version, instructions=instructions)  # pragma: no cover - mcp 1.x

    @server.list_tools()  # type: ignore[untyped-decorator]  # pragma: no cover - mcp 1.x
    async def v1_list_tools() -> list[mcp_types.Tool]:
        return [_tool(spec) for spec in await list_tools()]

    @server.call_tool(validate_input=False)  # type: ignore[untyped-decorator]  # pragma: no cover - mcp 1.x
    async def v1_call_tool(tool: str, arguments: dict[str, Any]) -> mcp_types.CallToolResult:
        ctx = server.request_context
        meta = _meta_dict(getattr(ctx, "meta", None))
        info = RequestInfo(meta, getattr(ctx, "session", None), _headers(getattr(ctx, "request", None)))
        return _result(await call_tool(tool, dict(arguments or {}), info))

    return server  # type: ignore[no-any-return]

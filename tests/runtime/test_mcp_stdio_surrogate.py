"""A request holding a lone surrogate gets a JSON-RPC error over stdio, not silence until the client times out."""

from __future__ import annotations

import json
import select
import subprocess
import sys
from pathlib import Path
from typing import Any

import mcp_types
import pytest
from pydantic import ValidationError

from envforge.runtime.mcp_server import unreadable_reply
from tests.conftest import REPO

CALL_WITH_SURROGATE = (
    '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"get_order","arguments":{"order_id":"\\ud800"}}}'
)


def parse_error(line: str) -> ValidationError:
    with pytest.raises(ValidationError) as info:
        mcp_types.jsonrpc_message_adapter.validate_json(line, by_name=False)
    return info.value


def test_the_reply_to_a_request_with_a_lone_surrogate_is_an_invalid_params_error_with_its_id() -> None:
    reply = unreadable_reply(parse_error(CALL_WITH_SURROGATE))
    assert reply is not None
    dumped = reply.message.model_dump(by_alias=True, exclude_none=True)
    assert dumped["id"] == 7 and dumped["error"]["code"] == -32602
    assert "lone surrogate" in dumped["error"]["message"]


def test_the_reply_to_a_request_that_breaks_the_schema_is_an_invalid_request_error_with_its_id() -> None:
    reply = unreadable_reply(parse_error('{"jsonrpc":"2.0","id":9,"method":"tools/call","params":[]}'))
    assert reply is not None
    dumped = reply.message.model_dump(by_alias=True, exclude_none=True)
    assert dumped["id"] == 9 and dumped["error"]["code"] == -32600
    assert dumped["error"]["message"].startswith("the request does not fit JSON-RPC 2.0 and MCP: params: ")


@pytest.mark.parametrize("line", ["{not json", '{"jsonrpc":"2.0","method":"notifications/x","params":{"a":"\\ud800"}}'])
def test_lines_without_a_request_id_get_no_invented_reply(line: str) -> None:
    assert unreadable_reply(parse_error(line)) is None


class StdioServer:
    """`envforge serve --transport stdio` spoken to line by line, each answer awaited at most `timeout` s."""

    def __init__(self, package: Path, timeout: float = 20) -> None:
        command = [sys.executable, "-m", "envforge.cli.app", "serve", str(package), "--transport", "stdio"]
        self.process = subprocess.Popen(command, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.timeout = timeout

    def send(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line.encode() + b"\n")
        self.process.stdin.flush()

    def answer(self) -> dict[str, Any] | None:
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], self.timeout)
        if not ready:
            return None
        answer: dict[str, Any] = json.loads(self.process.stdout.readline())
        return answer

    def close(self) -> None:
        self.process.kill()
        self.process.wait(timeout=30)


@pytest.mark.slow
def test_a_stdio_server_answers_a_lone_surrogate_and_keeps_serving(retail_package: Path) -> None:
    server = StdioServer(retail_package)
    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
        server.send(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}))
        assert server.answer() is not None
        server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))
        server.send(CALL_WITH_SURROGATE)
        refused = server.answer()
        assert refused is not None and refused["id"] == 7 and refused["error"]["code"] == -32602
        server.send(json.dumps({"jsonrpc": "2.0", "id": 8, "method": "tools/list", "params": {}}))
        listed = server.answer()
        assert listed is not None and listed["id"] == 8 and listed["result"]["tools"]
    finally:
        server.close()

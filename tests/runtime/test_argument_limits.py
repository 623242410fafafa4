"""Tool arguments past what the state can hold are refused before SQL runs, and refusals stay small."""

from __future__ import annotations

import logging
from typing import Any

import anyio
import mcp
import pytest

from envforge.runtime.dispatch import TEXT_MAX
from envforge.runtime.environment import Environment
from envforge.runtime.errors import refusal_of
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import EnvServer
from envforge.runtime.session import Session

MEGABYTE = 1_000_000


def call_over_mcp(env: Environment, name: str, arguments: dict[str, Any]) -> tuple[bool, dict[str, Any], int]:
    """(is_error, what the call answered, size of the text content) of one call through a real MCP client."""

    server = EnvServer(env)
    server.episodes.open_free("e1")

    async def run() -> tuple[bool, dict[str, Any], int]:
        async with mcp.Client(server.server) as client:
            result = await client.call_tool(name, arguments, meta={"envforge/episode": "e1"})  # type: ignore[arg-type]
            text = "".join(getattr(part, "text", "") for part in result.content)
            return result.is_error, dict(payload_of(result)), len(text)

    return anyio.run(run)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ({"email": "x" * 60_000}, f"text of 60,000 characters is over the limit of {TEXT_MAX:,}"),
        ({"offset": 1e19}, "argument 'offset': integer out of range"),
        ({"offset": 10**19}, "argument 'offset': integer out of range"),
        ({"limit": -1e300}, "argument 'limit'"),
    ],
)
def test_arguments_sqlite_cannot_take_are_invalid_arguments_not_internal_errors(
    retail_env: Environment, arguments: dict[str, Any], message: str, caplog: pytest.LogCaptureFixture
) -> None:
    session = Session(retail_env)
    before = session.state_hash()
    with caplog.at_level(logging.ERROR):
        ok, result = session.call_tool("list_customers" if "email" in arguments else "list_orders", arguments)
    assert not ok
    assert refusal_of(result)["code"] == "invalid_arguments"
    assert message in refusal_of(result)["message"]
    assert not caplog.records
    assert session.state_hash() == before


def test_a_one_megabyte_unknown_tool_name_is_not_echoed_back(retail_env: Environment) -> None:
    is_error, content, size = call_over_mcp(retail_env, "y" * MEGABYTE, {})
    assert is_error and content["error"]["code"] == "unknown_tool"
    assert size < 1000
    assert len(content["error"]["tool"]) <= 64 and content["error"]["message"].startswith("no tool named 'yyy")


def test_a_refusal_quotes_a_huge_argument_short(retail_env: Environment) -> None:
    is_error, content, size = call_over_mcp(retail_env, "list_customers", {"loyalty_tier": "z" * 9_000})
    assert is_error and content["error"]["code"] == "invalid_arguments"
    assert "is not one of" in content["error"]["message"]
    assert size < 1000


def test_a_failing_call_logs_its_arguments_cut_short(
    retail_env: Environment, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = Session(retail_env)

    def broken(name: str, arguments: dict[str, Any]) -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(session.dispatcher, "call", broken)
    with caplog.at_level(logging.ERROR):
        ok, result = session.call_tool("list_orders", {"status": "p" * MEGABYTE})
    assert not ok and refusal_of(result)["code"] == "internal_error"
    assert caplog.records and all(len(record.getMessage()) < 1000 for record in caplog.records)

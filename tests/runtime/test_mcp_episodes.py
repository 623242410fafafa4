"""Episodes of the MCP server never collide: a client must name its episode on a shared server, and a dropped
episode answers a structured error instead of a fresh state."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import anyio
import mcp
import pytest
from mcp.types import RequestParamsMeta
from starlette.applications import Starlette
from starlette.testclient import TestClient

from envforge.runtime.environment import Environment
from envforge.runtime.harness_routes import harness_routes
from envforge.runtime.mcp_server import EPISODE_ID_MAX, EPISODE_META_KEY, EnvServer
from tests.runtime.probes import first
from tests.runtime.test_mcp_server import TOKEN, http_server

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def meta(episode: str) -> RequestParamsMeta:
    return cast(RequestParamsMeta, {EPISODE_META_KEY: episode})


def pending_order(env: Environment) -> str:
    order: str = first(EnvServer(env).session("probe"), "list_orders", status="pending")["order_id"]
    return order


async def cancel_and_look(target: Any, order: str) -> tuple[Any, Any]:
    """Two default-mode mcp 2.x clients naming no episode: the first cancels an order, the second reads it."""
    async with mcp.Client(target) as first, mcp.Client(target) as second:
        cancelled = await first.call_tool("cancel_order", {"order_id": order, "reason": "other"})
        seen = await second.call_tool("get_order", {"order_id": order})
    return cancelled, seen


def test_clients_that_name_no_episode_on_a_shared_server_are_refused_and_write_nothing(retail_env: Environment) -> None:
    server = EnvServer(retail_env)
    cancelled, seen = anyio.run(cancel_and_look, server.server, pending_order(retail_env))
    for result in (cancelled, seen):
        assert result.is_error
        assert result.structured_content["error"]["code"] == "episode_required"
        assert EPISODE_META_KEY in result.structured_content["error"]["message"]
    assert not server.episodes


@pytest.mark.slow
def test_clients_that_name_no_episode_over_http_never_share_a_state(
    retail_package: Path, retail_env: Environment
) -> None:
    order = pending_order(retail_env)
    with http_server(retail_package) as url:
        cancelled, seen = anyio.run(cancel_and_look, url, order)
    assert cancelled.structured_content["error"]["code"] == "episode_required"
    assert seen.structured_content["error"]["code"] == "episode_required"


def test_a_stdio_server_gives_its_one_client_the_default_episode(retail_env: Environment) -> None:
    server = EnvServer(retail_env, anonymous="default")
    order = pending_order(retail_env)

    async def run() -> Any:
        async with mcp.Client(server.server) as client:
            await client.call_tool("cancel_order", {"order_id": order, "reason": "other"})
            return await client.call_tool("get_order", {"order_id": order})

    assert anyio.run(run).structured_content["status"] == "cancelled"
    assert list(server.episodes) == ["default"]


def call(server: EnvServer, episode: str, name: str = "list_orders", arguments: dict[str, Any] | None = None) -> Any:
    async def run() -> Any:
        async with mcp.Client(server.server) as client:
            return await client.call_tool(name, arguments or {"limit": 1}, meta=meta(episode))

    return anyio.run(run)


def test_an_episode_dropped_at_the_cap_answers_episode_ended_until_the_harness_resets_it(
    retail_env: Environment,
) -> None:
    server = EnvServer(retail_env, max_episodes=2)
    order = pending_order(retail_env)
    assert not call(server, "a", "cancel_order", {"order_id": order, "reason": "other"}).is_error
    call(server, "b")
    call(server, "c")
    ended = call(server, "a", "get_order", {"order_id": order})
    assert ended.is_error
    error = ended.structured_content["error"]
    assert error["code"] == "episode_ended"
    assert "limit of 2 live episodes" in error["message"] and "/harness/episodes/a/reset" in error["message"]
    assert [(item["episode"], item["reason"]) for item in server.report()["dropped"]] == [("a", "capacity")]
    server.reset("a")
    assert call(server, "a", "get_order", {"order_id": order}).structured_content["status"] == "pending"


def test_an_idle_episode_is_dropped_after_the_timeout(retail_env: Environment, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr("envforge.runtime.mcp_server.time.monotonic", lambda: clock[0])
    server = EnvServer(retail_env, idle_timeout=60)
    call(server, "quiet")
    clock[0] += 30
    call(server, "busy")
    clock[0] += 45
    assert not call(server, "busy").is_error
    ended = call(server, "quiet")
    assert ended.structured_content["error"]["code"] == "episode_ended"
    assert "idle for more than 60 s" in ended.structured_content["error"]["message"]
    assert list(server.episodes) == ["busy"]


def test_a_closed_episode_answers_episode_ended(retail_env: Environment) -> None:
    server = EnvServer(retail_env)
    call(server, "done")
    server.close("done")
    assert call(server, "done").structured_content["error"]["code"] == "episode_ended"


@pytest.mark.parametrize("episode", ["x" * (EPISODE_ID_MAX + 1), "y" * 1_000_000, "two words", "tab\there"])
def test_an_episode_id_too_long_or_with_odd_characters_is_refused(retail_env: Environment, episode: str) -> None:
    server = EnvServer(retail_env)
    result = call(server, episode)
    assert result.structured_content["error"]["code"] == "invalid_episode"
    assert len(str(result.structured_content)) < 500
    assert not server.episodes


def test_the_harness_api_reports_evictions_and_the_state_of_a_dropped_episode(retail_env: Environment) -> None:
    server = EnvServer(retail_env, max_episodes=1)
    call(server, "first")
    call(server, "second")
    with TestClient(Starlette(routes=harness_routes(server, TOKEN))) as http:
        report = http.get("/harness/episodes", headers=AUTH).json()
        assert report["live"] == 1 and report["max_episodes"] == 1
        assert [(item["episode"], item["reason"]) for item in report["dropped"]] == [("first", "capacity")]
        gone = http.get("/harness/episodes/first/state", headers=AUTH)
        assert gone.status_code == 404 and "has ended" in gone.json()["error"]
        assert http.get("/harness/episodes/never/state", headers=AUTH).status_code == 404
        assert http.post(f"/harness/episodes/{'z' * 200}/reset", headers=AUTH).status_code == 400
        assert http.post("/harness/episodes/first/reset", headers=AUTH).status_code == 200
        assert http.get("/harness/episodes/first/state", headers=AUTH).status_code == 200

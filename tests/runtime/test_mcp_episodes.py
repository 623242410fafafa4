"""Episodes of the MCP server never collide: a client must name an episode the harness created on a shared server,
and a dropped episode answers a structured error instead of a fresh state."""

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
from envforge.runtime.episode import load_package
from envforge.runtime.episode_store import EPISODE_ID_MAX
from envforge.runtime.errors import refusal_of
from envforge.runtime.harness import Harness
from envforge.runtime.harness_routes import harness_routes
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import DEFAULT_EPISODE, EPISODE_META_KEY, EnvServer, stdio_env_server
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from tests.runtime.probes import first
from tests.runtime.test_mcp_server import TOKEN, http_server

AUTH = {"Authorization": f"Bearer {TOKEN}"}


def meta(episode: str) -> RequestParamsMeta:
    return cast(RequestParamsMeta, {EPISODE_META_KEY: episode})


def pending_order(env: Environment) -> str:
    order: str = first(Session(env), "list_orders", status="pending")["order_id"]
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
        assert refusal_of(payload_of(result))["code"] == "episode_required"
        assert EPISODE_META_KEY in refusal_of(payload_of(result))["message"]
    assert not server.episodes.live


@pytest.mark.slow
def test_clients_that_name_no_episode_over_http_never_share_a_state(
    retail_package: Path, retail_env: Environment
) -> None:
    order = pending_order(retail_env)
    with http_server(retail_package) as url:
        cancelled, seen = anyio.run(cancel_and_look, url, order)
    assert refusal_of(payload_of(cancelled))["code"] == "episode_required"
    assert refusal_of(payload_of(seen))["code"] == "episode_required"


def test_a_stdio_server_gives_its_one_client_the_default_episode_listed_as_free(retail_env: Environment) -> None:
    server = stdio_env_server(retail_env)
    assert [(item["episode"], item["task"], item["free"]) for item in server.episodes.report()["episodes"]] == [
        (DEFAULT_EPISODE, None, True)
    ]
    order = pending_order(retail_env)

    async def run() -> Any:
        async with mcp.Client(server.server) as client:
            await client.call_tool("cancel_order", {"order_id": order, "reason": "other"})
            return await client.call_tool("get_order", {"order_id": order})

    assert anyio.run(run).structured_content["status"] == "cancelled"
    assert list(server.episodes.live) == [DEFAULT_EPISODE]
    assert server.episodes.report()["episodes"][0]["calls"] == 2


def test_a_stdio_server_for_a_task_serves_its_person_and_only_episodes_the_harness_created(
    retail_package: Path, retail_env: Environment
) -> None:
    package = load_package(open_package(retail_package))
    task = package.task(package.task_ids[0])
    server = stdio_env_server(retail_env, task)
    listed = server.episodes.report()["episodes"]
    assert [(item["episode"], item["task"], item["free"], item["person"]) for item in listed] == [
        (DEFAULT_EPISODE, task.id, False, task.scenario.person)
    ]
    assert refusal_of(payload_of(call(server, "mine")))["code"] == "episode_unknown"
    assert stdio_env_server(retail_env, task, free_episodes=True).episodes.for_call("mine").free


def call(server: EnvServer, episode: str, name: str = "list_orders", arguments: dict[str, Any] | None = None) -> Any:
    async def run() -> Any:
        async with mcp.Client(server.server) as client:
            return await client.call_tool(name, arguments or {"limit": 1}, meta=meta(episode))

    return anyio.run(run)


def open_episodes(server: EnvServer, *names: str) -> None:
    for name in names:
        server.episodes.open_free(name)


def test_an_episode_the_harness_never_created_is_refused_and_changes_nothing(retail_env: Environment) -> None:
    server = EnvServer(retail_env)
    order = pending_order(retail_env)
    refused = call(server, "mine", "cancel_order", {"order_id": order, "reason": "other"})
    assert refused.is_error
    error = refusal_of(payload_of(refused))
    assert error["code"] == "episode_unknown" and error["tool"] == "cancel_order"
    assert "POST /harness/episodes" in error["message"] and "--free-episodes" in error["message"]
    assert not server.episodes.live and not server.episodes.dropped


def test_a_server_that_allows_free_episodes_starts_one_for_a_new_id_and_lists_it_as_free(
    retail_env: Environment,
) -> None:
    server = EnvServer(retail_env, free_episodes=True)
    assert not call(server, "mine").is_error
    listed = server.episodes.report()["episodes"]
    assert [(item["episode"], item["task"], item["free"], item["person"]) for item in listed] == [
        ("mine", None, True, None)
    ]


def test_an_episode_dropped_at_the_cap_answers_episode_ended_until_the_harness_resets_it(
    retail_env: Environment,
) -> None:
    server = EnvServer(retail_env, max_episodes=2)
    order = pending_order(retail_env)
    open_episodes(server, "a")
    assert not call(server, "a", "cancel_order", {"order_id": order, "reason": "other"}).is_error
    open_episodes(server, "b", "c")
    ended = call(server, "a", "get_order", {"order_id": order})
    assert ended.is_error
    error = refusal_of(payload_of(ended))
    assert error["code"] == "episode_ended"
    assert "limit of 2 live episodes" in error["message"] and "/harness/episodes/a/reset" in error["message"]
    assert [(item["episode"], item["reason"]) for item in server.episodes.report()["dropped"]] == [("a", "capacity")]
    server.episodes.reset("a")
    assert call(server, "a", "get_order", {"order_id": order}).structured_content["status"] == "pending"


def test_an_idle_episode_is_dropped_after_the_timeout(retail_env: Environment, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = [1000.0]
    monkeypatch.setattr("envforge.runtime.episode_store.time.monotonic", lambda: clock[0])
    server = EnvServer(retail_env, idle_timeout=60)
    open_episodes(server, "quiet")
    clock[0] += 30
    open_episodes(server, "busy")
    clock[0] += 45
    assert not call(server, "busy").is_error
    ended = call(server, "quiet")
    assert refusal_of(payload_of(ended))["code"] == "episode_ended"
    assert "idle for more than 60 s" in refusal_of(payload_of(ended))["message"]
    assert list(server.episodes.live) == ["busy"]


def test_a_closed_episode_answers_episode_ended(retail_env: Environment) -> None:
    server = EnvServer(retail_env)
    open_episodes(server, "done")
    call(server, "done")
    server.episodes.close("done")
    assert refusal_of(payload_of(call(server, "done")))["code"] == "episode_ended"


@pytest.mark.parametrize("episode", ["x" * (EPISODE_ID_MAX + 1), "y" * 1_000_000, "two words", "tab\there"])
def test_an_episode_id_too_long_or_with_odd_characters_is_refused(retail_env: Environment, episode: str) -> None:
    server = EnvServer(retail_env, free_episodes=True)
    result = call(server, episode)
    assert refusal_of(payload_of(result))["code"] == "invalid_episode"
    assert len(str(payload_of(result))) < 500
    assert not server.episodes.live


def test_the_harness_api_reports_evictions_and_the_state_of_a_dropped_episode(retail_package: Path) -> None:
    package = load_package(open_package(retail_package))
    server = EnvServer(package.env, max_episodes=1)
    open_episodes(server, "first", "second")
    with TestClient(Starlette(routes=harness_routes(Harness(package, server.episodes), TOKEN))) as http:
        report = http.get("/harness/episodes", headers=AUTH).json()
        assert report["live"] == 1 and report["max_episodes"] == 1
        assert [item["episode"] for item in report["episodes"]] == ["second"]
        assert [(item["episode"], item["reason"]) for item in report["dropped"]] == [("first", "capacity")]
        gone = http.get("/harness/episodes/first/state", headers=AUTH)
        assert gone.status_code == 404 and "has ended" in gone.json()["error"]
        never = http.get("/harness/episodes/never/state", headers=AUTH)
        assert never.status_code == 404 and "POST /harness/episodes" in never.json()["error"]
        assert http.post(f"/harness/episodes/{'z' * 200}/reset", headers=AUTH).status_code == 400
        assert http.post("/harness/episodes/never/reset", headers=AUTH).status_code == 404
        assert http.post("/harness/episodes/first/reset", headers=AUTH).status_code == 200
        assert http.get("/harness/episodes/first/state", headers=AUTH).status_code == 200

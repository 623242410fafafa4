"""The harness token: only `Bearer <token>` exactly opens the harness API, and an empty token is refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from envforge.errors import UserInputError
from envforge.runtime.apps.server import AppServer
from envforge.runtime.episode import load_package
from envforge.runtime.harness import Harness
from envforge.runtime.harness_auth import is_harness
from envforge.runtime.harness_routes import harness_routes
from envforge.runtime.mcp_server import EnvServer
from envforge.runtime.opened_package import open_package
from envforge.runtime.serve import TOKEN_VARIABLE, announce_token, harness_token
from tests.conftest import envforge_cli

TOKEN = "s3cret-token"
REFUSED = [None, "", TOKEN, f"bearer {TOKEN}", f"Bearer  {TOKEN}", f"Bearer {TOKEN} ", f"Basic {TOKEN}", "Bearer "]


@pytest.mark.parametrize("header", REFUSED)
def test_only_the_bearer_scheme_with_the_exact_token_is_the_harness(header: str | None) -> None:
    assert not is_harness(header, TOKEN)
    assert is_harness(f"Bearer {TOKEN}", TOKEN)


def test_the_mcp_servers_harness_routes_refuse_a_token_without_its_scheme(retail_package: Path) -> None:
    package = load_package(open_package(retail_package))
    server = EnvServer(package.env)
    server.episodes.open_free("e1")
    with TestClient(Starlette(routes=harness_routes(Harness(package, server.episodes), TOKEN))) as http:
        assert http.post("/harness/episodes/e1/reset", headers={"Authorization": TOKEN}).status_code == 401
        assert http.post("/harness/episodes/e1/reset", headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_the_app_servers_harness_api_refuses_a_token_without_its_scheme(retail_package: Path) -> None:
    with TestClient(AppServer(load_package(open_package(retail_package)), "web", TOKEN).app()) as http:
        free = {"free": True}
        assert http.post("/harness/episodes", json=free, headers={"Authorization": TOKEN}).status_code == 401
        assert (
            http.post("/harness/episodes", json=free, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 201
        )


@pytest.mark.parametrize("value", ["", "   ", " padded"])
def test_an_empty_or_padded_token_in_the_environment_is_refused(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, value)
    with pytest.raises(UserInputError, match=f"{TOKEN_VARIABLE} is set but empty or padded with spaces"):
        harness_token()


def test_a_chosen_token_is_used_as_given_and_not_announced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, TOKEN)
    assert harness_token() == TOKEN
    announced: list[str] = []
    announce_token(TOKEN, announced.append)
    assert announced == []


def test_no_token_in_the_environment_makes_a_random_one_and_announces_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(TOKEN_VARIABLE, raising=False)
    token = harness_token()
    assert len(token) >= 24 and harness_token() != token
    announced: list[str] = []
    announce_token(token, announced.append)
    assert announced == [f"harness token (set {TOKEN_VARIABLE} to choose it): {token}"]


@pytest.mark.parametrize("mode", [["--app", "web"], ["--transport", "http"]])
def test_serve_with_an_empty_token_exits_2_with_one_line(
    mode: list[str], retail_package: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TOKEN_VARIABLE, "")
    result = envforge_cli("serve", str(retail_package), *mode, "--port", "0", timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith(f"envforge: error: {TOKEN_VARIABLE} is set but empty")
    assert result.stderr.count("\n") == 1

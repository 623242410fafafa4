"""Random and adversarial input to every door envforge opens: the blueprint loader, the app server's routes,
and the MCP server over stdio and over HTTP. Bounded in count and time, loopback only.

What must hold for every input: a clear refusal or a normal answer, never a 5xx, a traceback or a hang, and
no change to the state unless the input was a valid write.
"""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from starlette.testclient import TestClient

from envforge.errors import EnvforgeError
from envforge.ir.loading import load_blueprint_text
from envforge.runtime.apps.server import AppServer
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.conftest import REPO
from tests.runtime.apps.harness_client import AUTH, TOKEN, new_episode
from tests.runtime.test_mcp_server import http_server
from tests.runtime.test_mcp_stdio_surrogate import StdioServer

RETAIL_TEXT = (REPO / "blueprints" / "retail.yaml").read_text(encoding="utf-8")
LOAD_SECONDS = 1.0
YAML_PIECES = ["&a [*a, *a]", "*a", "{", "[", "]", "}", ": ", "- ", "!!python/object:os.system", "\t", "'", '"', "\x00", "\ud800", "&b", "<<: *b", "? ", "%YAML 1.1\n", "---\n", "..."]  # fmt: skip


def _mutated(text: str, data: st.DataObject) -> str:
    """The retail blueprint with random pieces cut out and YAML syntax spliced in."""
    for _ in range(data.draw(st.integers(1, 6))):
        at = data.draw(st.integers(0, len(text)))
        if data.draw(st.booleans()):
            text = text[:at] + text[at + data.draw(st.integers(1, 200)) :]
        else:
            text = text[:at] + data.draw(st.sampled_from(YAML_PIECES) | st.text(max_size=40)) + text[at:]
    return text


def _loads_or_refuses(text: str) -> None:
    started = time.perf_counter()
    try:
        load_blueprint_text(text, "fuzz.yaml")
    except EnvforgeError as error:
        assert "\n" not in str(error).strip(), str(error)
    assert time.perf_counter() - started < LOAD_SECONDS


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_mangled_blueprint_is_loaded_or_refused_in_one_line_within_a_second(data: st.DataObject) -> None:
    _loads_or_refuses(_mutated(RETAIL_TEXT, data))


@settings(max_examples=100, deadline=None)
@given(raw=st.binary(max_size=4000))
def test_random_bytes_as_a_blueprint_are_refused_in_one_line(raw: bytes) -> None:
    _loads_or_refuses(raw.decode("utf-8", errors="surrogateescape"))


@pytest.fixture(scope="module")
def app(retail_package: Path) -> Iterator[tuple[TestClient, dict[str, str]]]:
    server: AppServer = AppServer(load_package(open_package(retail_package)), "web", TOKEN)
    with TestClient(server.app(), raise_server_exceptions=False) as http:
        yield http, new_episode(http)


def _state(http: TestClient, episode: str) -> bytes:
    response = http.get(f"/harness/episodes/{episode}/snapshot", headers=AUTH)
    assert response.status_code == 200
    return response.content


SEGMENTS = st.sampled_from(["e", "harness", "episodes", "static", "reset", "snapshot", "state", "verdict", "..", "%00", "%2e%2e", "x" * 300, "\u00b2", "orders", "tools", "action", "confirm"])  # fmt: skip


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH"]),
    segments=st.lists(SEGMENTS | st.text(max_size=12), max_size=5),
    query=st.dictionaries(st.sampled_from(["offset", "limit", "q", "status", "task_id"]), st.text(max_size=30)),
    body=st.binary(max_size=3000),
    page=st.booleans(),
    authorized=st.booleans(),
)
def test_random_requests_to_the_app_server_get_no_5xx_and_change_no_state(
    app: tuple[TestClient, dict[str, str]],
    method: str,
    segments: list[str],
    query: dict[str, str],
    body: bytes,
    page: bool,
    authorized: bool,
) -> None:
    http, episode = app
    before = _state(http, episode["episode"])
    base = episode["url"] if page else "/"
    # Sent percent-encoded, as a client must; "%00" and "%2e%2e" stay encoded on purpose.
    path = base + "/".join(quote(segment.replace("/", ""), safe="%") or "x" for segment in segments)
    headers = AUTH if authorized else {}
    response = http.request(method, path, params=query, content=body, headers=headers)
    assert response.status_code < 500, (method, path, response.text[:300])
    assert "Traceback" not in response.text
    if authorized and path.startswith("/harness/"):
        return  # the harness may reset or replace the state: that is what it is for
    assert _state(http, episode["episode"]) == before, (method, path)


JSON_RPC = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
REQUESTS = st.fixed_dictionaries(
    {"jsonrpc": st.sampled_from(["2.0", "1.0", 2]), "id": st.integers(1, 10**6) | st.text(max_size=5)},
    optional={
        "method": st.sampled_from(["tools/call", "tools/list", "initialize", "resources/read", "x"]) | st.text(),
        "params": JSON_RPC,
    },
)


@pytest.mark.slow
def test_random_lines_to_the_stdio_server_get_answers_and_it_keeps_serving(retail_package: Path) -> None:
    server = StdioServer(retail_package, timeout=15)
    try:
        hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}
        server.send(json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello}))
        assert server.answer() is not None
        server.send(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}))

        ids = iter(range(1000, 10**6))

        @settings(max_examples=60, deadline=None)
        @given(request=REQUESTS)
        def send_one(request: dict[str, object]) -> None:
            number = next(ids)
            request = {**request, "id": number}
            server.send(json.dumps(request))
            if request.get("jsonrpc") == "2.0" and "method" in request:
                # A request with an id never goes unanswered (replies to earlier odd lines may come first).
                answer = server.answer()
                while answer is not None and answer.get("id") != number:
                    answer = server.answer()
                assert answer is not None, request
                assert "result" in answer or "error" in answer, answer

        send_one()
        server.send(json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/list", "params": {}}))
        listed = server.answer()
        while listed is not None and listed.get("id") != 9:
            listed = server.answer()  # replies to earlier odd lines that were not waited for
        assert listed is not None and listed["result"]["tools"]
    finally:
        server.close()


@pytest.mark.slow
def test_random_bodies_to_the_http_mcp_endpoint_get_no_5xx(retail_package: Path) -> None:
    with http_server(retail_package) as url:

        @settings(max_examples=80, deadline=None)
        @given(body=st.binary(max_size=2000) | REQUESTS.map(lambda r: json.dumps(r).encode()))
        def post(body: bytes) -> None:
            request = urllib.request.Request(
                url,
                data=body,
                method="POST",
                headers={"Content-Type": "application/json", "Accept": "application/json, text/event-stream"},
            )
            try:
                with urllib.request.urlopen(request, timeout=15) as response:
                    status = response.status
            except urllib.error.HTTPError as error:
                status = error.code
            assert status < 500, body[:200]

        post()

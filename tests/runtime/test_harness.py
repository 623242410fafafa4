"""One harness, every transport: over MCP (streamable HTTP, a real server process and a real MCP client) and on
the app server, an episode is created for a task and serves its person only, and its verdict over HTTP is the
one the package's verifier gives in process for the same run; caps and idle timeouts evict on both servers, and
a free episode is reported as free."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, cast

import anyio
import httpx2
import mcp
import pytest
from mcp.types import RequestParamsMeta
from starlette.applications import Starlette
from starlette.testclient import TestClient

from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.runtime.apps.server import AppServer
from envforge.runtime.apps.uitasks import find_ui_task
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.errors import refusal_of
from envforge.runtime.harness import Harness
from envforge.runtime.harness_routes import harness_routes
from envforge.runtime.mcp_compat import payload_of
from envforge.runtime.mcp_server import EPISODE_META_KEY, EnvServer
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.stages.uitasks.http_page import HttpPage
from tests.conftest import REPO
from tests.runtime.test_mcp_server import TOKEN, http_server

SHOWCASE = REPO / "generated" / "showcase" / "retail"
TASK = "retail-0001"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


@pytest.fixture(scope="module")
def package() -> EnvPackage:
    return load_package(open_package(SHOWCASE))


def stranger(package: EnvPackage, task: TaskSpec) -> str:
    """A customer the task does not serve."""
    customers = Session(package.env).rows("customer")
    return str(next(row["customer_id"] for row in customers if row["customer_id"] != task.scenario.person))


def in_process_verdict(
    package: EnvPackage, task: TaskSpec, calls: list[ToolCall], answer: str | None, channel: str = "chat"
) -> Any:
    """The verdict of the package's verifier on a session that made `calls` for the task's person."""
    session = Session(package.env, task.scenario.person)
    for call in calls:
        session.call_tool(call.name, call.arguments)
    transcript = Transcript.model_validate({"calls": calls, "answer": answer, "channel": channel})
    return package.verify(task.id, session.history(), transcript).model_dump(mode="json")


def check_opening(opened: dict[str, Any], package: EnvPackage, task: TaskSpec, opening: str) -> None:
    assert (opened["task"], opened["free"], opened["person"]) == (task.id, False, task.scenario.person)
    assert opened["policy"] == (SHOWCASE / "policy.md").read_text() and opened["opening"] == opening
    assert [tool["function"]["name"] for tool in opened["tools"]] == sorted(
        package.env.tools, key=list(package.env.tools).index
    )


def test_over_mcp_http_a_tasks_episode_refuses_another_persons_write_and_its_verdict_equals_in_process(
    package: EnvPackage,
) -> None:
    task = package.task(TASK)
    trespass = ToolCall(
        name="update_email", arguments={"customer_id": stranger(package, task), "email": "x@example.org"}
    )

    async def run(url: str, episode: str, calls: list[ToolCall]) -> list[Any]:
        meta = cast(RequestParamsMeta, {EPISODE_META_KEY: episode})
        async with mcp.Client(url) as client:
            return [await client.call_tool(call.name, call.arguments, meta=meta) for call in calls]

    with http_server(SHOWCASE) as url:
        base = url.removesuffix("/mcp")

        def harness(method: str, path: str, body: dict[str, Any] | None = None) -> httpx2.Response:
            return httpx2.request(method, f"{base}{path}", json=body, headers=AUTH, timeout=30)

        created = harness("POST", "/harness/episodes", {"task": TASK, "episode": "run-1"})
        assert created.status_code == 201, created.text
        check_opening(created.json(), package, task, task.instruction)
        refused, *oracle = anyio.run(run, url, "run-1", [trespass, *task.oracle])
        assert refused.is_error
        error = refusal_of(payload_of(refused))
        assert (error["code"], error["policy"], error["tool"]) == ("policy_violation", "ownership", "update_email")
        assert not any(result.is_error for result in oracle)
        verdict = harness("POST", "/harness/episodes/run-1/verdict", {"answer": package.golden_message(TASK)}).json()
        assert verdict == in_process_verdict(package, task, [trespass, *task.oracle], package.golden_message(TASK))

        assert harness("POST", "/harness/episodes", {"task": TASK, "episode": "run-2"}).status_code == 201
        anyio.run(run, url, "run-2", task.oracle)
        clean = harness("POST", "/harness/episodes/run-2/verdict", {"answer": package.golden_message(TASK)}).json()
        assert clean["passed"] is True
        assert clean == in_process_verdict(package, task, task.oracle, package.golden_message(TASK))

        listed = harness("GET", "/harness/episodes").json()["episodes"]
        assert {(item["episode"], item["task"], item["free"]) for item in listed} == {
            ("run-1", TASK, False),
            ("run-2", TASK, False),
        }
        assert harness("DELETE", "/harness/episodes/run-1").status_code == 200
        (ended, unknown) = (anyio.run(run, url, name, task.oracle[:1])[0] for name in ("run-1", "never-made"))
        assert refusal_of(payload_of(ended))["code"] == "episode_ended"
        assert refusal_of(payload_of(unknown))["code"] == "episode_unknown"
        gone = harness("POST", "/harness/episodes/run-1/verdict", {})
        assert gone.status_code == 404 and "the harness closed it" in gone.json()["error"]


def test_on_the_app_server_a_tasks_episode_refuses_another_persons_write_and_its_verdict_equals_in_process(
    package: EnvPackage,
) -> None:
    task = package.task(TASK)
    posed = find_ui_task(package.files, TASK, "web")
    server = AppServer(package, "web", TOKEN)
    with TestClient(server.app()) as http:
        created = http.post("/harness/episodes", json={"task": TASK}, headers=AUTH)
        assert created.status_code == 201, created.text
        opened = created.json()
        check_opening(opened, package, task, posed.instruction)
        other = stranger(package, task)
        page = http.post(f"{opened['url']}customer/{other}/do/update_email", data={"email": "x@example.org"})
        assert page.status_code == 422 and "belongs to another customer" in page.text
        browser = HttpPage(http, opened["url"])
        for step in posed.steps:
            browser.perform(step)
        episode = server.episodes.get(opened["episode"])
        calls = episode.tool_calls()
        assert ("update_email", False) in [(name, ok) for name, _, ok in episode.calls]
        verdict = http.post(f"/harness/episodes/{opened['episode']}/verdict", headers=AUTH).json()
        # An app's episodes owe no report (the screens show the user what changed): judged as the app channel.
        assert verdict == in_process_verdict(package, task, calls, None, channel="app")
        assert "told_the_user" not in verdict["components"]
        in_app = Harness(package, server.episodes, "web")
        assert verdict == in_app.verdict(opened["episode"], {"channel": "chat"}).model_dump(mode="json")


@dataclass
class Served:
    """A server's harness API under a test client, and a way to use an episode as its agent would."""

    http: TestClient
    kind: str
    mcp: EnvServer | None = None
    urls: dict[str, str] = field(default_factory=dict)

    def create(self, episode: str, **body: Any) -> dict[str, Any]:
        response = self.http.post("/harness/episodes", json={"task": TASK, "episode": episode, **body}, headers=AUTH)
        assert response.status_code == 201, response.text
        created: dict[str, Any] = response.json()
        if "url" in created:
            self.urls[episode] = created["url"]
        return created

    def use(self, episode: str) -> bool:
        """True when the episode answered as a live one: a tool call over MCP, or its home page in the app."""
        if self.mcp is None:
            return self.http.get(self.urls[episode]).status_code == 200
        server = self.mcp

        async def run() -> Any:
            async with mcp.Client(server.server) as client:
                meta = cast(RequestParamsMeta, {EPISODE_META_KEY: episode})
                return await client.call_tool("list_orders", {"limit": 1}, meta=meta)

        result = anyio.run(run)
        return not result.is_error


Serve = Callable[..., AbstractContextManager[Served]]


@pytest.fixture(params=["mcp", "web"])
def serve(request: pytest.FixtureRequest, package: EnvPackage) -> Serve:
    """Start the MCP server (its harness routes as `serve --transport http` mounts them) or the web app server."""

    @contextmanager
    def start(**limits: Any) -> Iterator[Served]:
        if request.param == "mcp":
            server = EnvServer(package.env, **limits)
            app = Starlette(routes=harness_routes(Harness(package, server.episodes), TOKEN))
            with TestClient(app) as http:
                yield Served(http, "mcp", server)
        else:
            with TestClient(AppServer(package, "web", TOKEN, **limits).app()) as http:
                yield Served(http, "web")

    return start


def test_the_cap_evicts_the_least_recent_episode_and_the_listing_says_so(serve: Serve) -> None:
    with serve(max_episodes=2) as served:
        served.create("a"), served.create("b")
        assert served.use("a")
        served.create("c")
        assert not served.use("b") and served.use("a") and served.use("c")
        listing = served.http.get("/harness/episodes", headers=AUTH).json()
        assert sorted(item["episode"] for item in listing["episodes"]) == ["a", "c"]
        assert [(item["episode"], item["task"], item["reason"]) for item in listing["dropped"]] == [
            ("b", TASK, "capacity")
        ]
        state = served.http.get("/harness/episodes/b/state", headers=AUTH)
        assert state.status_code == 404 and "limit of 2 live episodes" in state.json()["error"]
        assert state.json()["code"] == "episode_ended"


def test_an_idle_episode_is_evicted_after_the_timeout_and_the_listing_says_so(
    serve: Serve, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [1000.0]
    monkeypatch.setattr("envforge.runtime.episode_store.time.monotonic", lambda: clock[0])
    with serve(idle_timeout=60) as served:
        served.create("quiet"), served.create("busy")
        clock[0] += 45
        assert served.use("busy")
        clock[0] += 30
        assert not served.use("quiet") and served.use("busy")
        listing = served.http.get("/harness/episodes", headers=AUTH).json()
        assert [item["episode"] for item in listing["episodes"]] == ["busy"]
        assert [(item["episode"], item["reason"]) for item in listing["dropped"]] == [("quiet", "idle")]
        verdict = served.http.post("/harness/episodes/quiet/verdict", json={}, headers=AUTH)
        assert verdict.status_code == 404 and "idle for more than 60 s" in verdict.json()["error"]


def test_a_free_episode_is_made_only_when_asked_and_reported_as_free(serve: Serve) -> None:
    with serve() as served:
        http = served.http
        assert http.post("/harness/episodes", json={}, headers=AUTH).status_code == 400
        free = served.create("loose", task=None, free=True)
        assert (free["task"], free["free"], free["person"], free["opening"]) == (None, True, None, None)
        assert served.use("loose")
        listed = http.get("/harness/episodes", headers=AUTH).json()["episodes"]
        assert [(item["episode"], item["task"], item["free"]) for item in listed] == [("loose", None, True)]
        judged = http.post("/harness/episodes/loose/verdict", json={}, headers=AUTH)
        assert judged.status_code == 409 and "free" in judged.json()["error"]
        again = http.post("/harness/episodes", json={"free": True, "episode": "loose"}, headers=AUTH)
        assert again.status_code == 409 and "live already" in again.json()["error"]

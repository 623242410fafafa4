"""Bad requests to the app server get a 4xx with one line of JSON, change nothing, and leave the episode working."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest
from starlette.testclient import TestClient

from envforge.runtime.apps.server import AppServer
from envforge.runtime.bodies import FORM_LIMIT, JSON_LIMIT
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.runtime.apps.harness_client import AUTH, TOKEN, new_episode


@pytest.fixture
def client(retail_package: Path) -> Iterator[TestClient]:
    with TestClient(
        AppServer(load_package(open_package(retail_package)), "web", TOKEN).app(), raise_server_exceptions=False
    ) as http:
        yield http


def refused(response: httpx2.Response, status: int) -> str:
    """The one-line error of a refused request, checked to have `status`."""
    assert response.status_code == status, response.text[:500]
    message = response.json()["error"]
    assert isinstance(message, str) and message and "\n" not in message and len(message) < 300
    return message


def still_works(client: TestClient, episode: dict[str, str]) -> None:
    """The episode answers its harness and its pages as before."""
    state = client.get(f"/harness/episodes/{episode['episode']}/state", headers=AUTH)
    assert state.status_code == 200 and state.json()["tables"]["order"]
    assert client.get(f"{episode['url']}order/").status_code == 200
    assert client.get(f"/harness/episodes/{episode['episode']}/diff", headers=AUTH).json()["changes"] == []


def customer_of(client: TestClient, episode: dict[str, str]) -> str:
    state = client.get(f"/harness/episodes/{episode['episode']}/state", headers=AUTH).json()
    customer: str = state["tables"]["customer"][0]["customer_id"]
    return customer


def test_a_form_post_over_64_kib_is_refused_whole_with_413_and_stores_nothing(client: TestClient) -> None:
    episode = new_episode(client)
    url = f"{episode['url']}customer/{customer_of(client, episode)}/do/add_address"
    head = "label=home&street=1+Main+St&city=Springfield&pad="
    # The limit falls inside the last value: cut there, it would be stored as '123'.
    body = head + "x" * (FORM_LIMIT - len(head) - len("&postal_code=123")) + "&postal_code=12345"
    response = client.post(url, content=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert "over the limit of 65,536 bytes" in refused(response, 413)
    still_works(client, episode)


def test_a_form_post_within_the_limit_is_read_whole(client: TestClient) -> None:
    episode = new_episode(client)
    url = f"{episode['url']}customer/{customer_of(client, episode)}/do/add_address"
    head = "label=home&street=1+Main+St&city=Springfield&pad="
    body = head + "x" * (FORM_LIMIT - len(head) - len("&postal_code=12345")) + "&postal_code=12345"
    assert len(body) == FORM_LIMIT
    response = client.post(url, content=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert response.status_code == 200
    changes = client.get(f"/harness/episodes/{episode['episode']}/diff", headers=AUTH).json()["changes"]
    assert [change["after"]["postal_code"] for change in changes if change["entity"] == "address"] == ["12345"]


def test_a_harness_body_that_declares_or_sends_too_much_is_refused_with_413(client: TestClient) -> None:
    too_much = client.post("/harness/episodes", content=b"{" + b" " * JSON_LIMIT + b"}", headers=AUTH)
    assert "over the limit" in refused(too_much, 413)
    declared = client.post("/harness/episodes", content=b"{}", headers={**AUTH, "Content-Length": str(10**30)})
    assert declared.status_code in (400, 413)


@pytest.mark.parametrize("offset", ["²", "9" * 4300, "-1", "1e3", "１"])
def test_an_offset_that_is_not_ascii_digits_is_a_400(client: TestClient, offset: str) -> None:
    episode = new_episode(client)
    response = client.get(f"{episode['url']}order/", params={"offset": offset})
    assert "offset must be a whole number" in refused(response, 400)
    still_works(client, episode)


def test_a_static_path_with_a_nul_byte_is_a_404(client: TestClient) -> None:
    episode = new_episode(client)
    assert refused(client.get(f"{episode['url']}static/app.css%00.png"), 404) == "no such static file"
    still_works(client, episode)


@pytest.mark.parametrize("body", [b"{not json", b"\xff\xfe", b"[1, 2]", b'"x"'])
def test_a_create_request_that_is_not_a_json_object_is_a_400(client: TestClient, body: bytes) -> None:
    response = client.post("/harness/episodes", content=body, headers=AUTH)
    assert "JSON" in refused(response, 400)
    assert client.post("/harness/episodes", content=b'{"free": true}', headers=AUTH).status_code == 201


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"", '{"free": true}'),
        (b"{}", '{"free": true}'),
        (b'{"task": 7}', "task: Input should be a valid string"),
        (b'{"task_id": "retail-0001"}', "task_id: Extra inputs are not permitted"),
        (b'{"task": "retail-0001", "free": true}', '{"free": true}'),
        (b'{"task": "no-such-task"}', "no task 'no-such-task'"),
        (b'{"free": true, "episode": "two words"}', "an episode id is 1 to 128"),
    ],
)
def test_a_create_request_without_exactly_one_known_task_or_free_is_a_400(
    client: TestClient, body: bytes, problem: str
) -> None:
    assert problem in refused(client.post("/harness/episodes", content=body, headers=AUTH), 400)
    assert client.get("/harness/episodes", headers=AUTH).json()["live"] == 0


@pytest.mark.parametrize(
    ("state", "problem"),
    [
        (b"", "the snapshot is empty"),
        (b"garbage" * 100, "not a SQLite database"),
        (b"SQLite format 3\x00" + b"\x00" * 4000, "SQLite"),
    ],
)
def test_a_snapshot_that_is_not_this_environments_state_is_a_400_and_changes_nothing(
    client: TestClient, state: bytes, problem: str
) -> None:
    episode = new_episode(client)
    before = client.get(f"/harness/episodes/{episode['episode']}/state", headers=AUTH).json()["state_hash"]
    response = client.put(f"/harness/episodes/{episode['episode']}/snapshot", content=state, headers=AUTH)
    assert problem in refused(response, 400)
    after = client.get(f"/harness/episodes/{episode['episode']}/state", headers=AUTH).json()["state_hash"]
    assert after == before
    still_works(client, episode)


def test_a_snapshot_of_another_database_is_refused_by_its_tables(client: TestClient) -> None:
    import sqlite3

    other = sqlite3.connect(":memory:")
    other.execute("CREATE TABLE t (x)")
    episode = new_episode(client)
    response = client.put(f"/harness/episodes/{episode['episode']}/snapshot", content=other.serialize(), headers=AUTH)
    assert "has no table" in refused(response, 400)
    still_works(client, episode)


def test_a_real_snapshot_round_trips(client: TestClient) -> None:
    episode = new_episode(client)
    snapshot = client.get(f"/harness/episodes/{episode['episode']}/snapshot", headers=AUTH).content
    response = client.put(f"/harness/episodes/{episode['episode']}/snapshot", content=snapshot, headers=AUTH)
    assert response.status_code == 200
    still_works(client, episode)


def test_the_verdict_of_a_task_whose_verifier_file_went_missing_while_serving_is_a_409_naming_the_file(
    retail_package: Path, tmp_path: Path
) -> None:
    # A package missing a verifier is refused when it loads; this is the file removed after the server started.
    copy = tmp_path / "retail"
    shutil.copytree(retail_package, copy)
    task_id = sorted(path.stem for path in (copy / "verifiers").glob("*.py"))[0]
    server = AppServer(load_package(open_package(copy)), "web", TOKEN)
    (copy / "verifiers" / f"{task_id}.py").unlink()
    with TestClient(server.app(), raise_server_exceptions=False) as http:
        episode = new_episode(http, task_id)
        message = refused(http.post(f"/harness/episodes/{episode['episode']}/verdict", headers=AUTH), 409)
        assert f"verifiers/{task_id}.py" in message and "envforge generate" in message
        still_works(http, episode)

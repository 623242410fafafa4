"""The app server over HTTP: isolated episodes, forms that go through tool dispatch, a harness API behind a token."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from envforge.runtime.apps.server import AppServer
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.browser import person_email
from tests.runtime.apps.harness_client import AUTH, TOKEN, new_episode


@pytest.fixture(params=["web", "phone"])
def server(request: pytest.FixtureRequest, retail_package: Path) -> AppServer:
    return AppServer(load_package(open_package(retail_package)), request.param, TOKEN)


@pytest.fixture
def client(server: AppServer) -> Iterator[TestClient]:
    with TestClient(server.app()) as http:
        yield http


def test_the_harness_api_refuses_a_page_and_a_wrong_token(client: TestClient) -> None:
    episode = new_episode(client)
    page_token = episode["url"].split("/")[2]
    routes = [
        ("post", "/harness/episodes"),
        ("post", f"/harness/episodes/{episode['episode']}/reset"),
        ("get", f"/harness/episodes/{episode['episode']}/state"),
        ("get", f"/harness/episodes/{episode['episode']}/diff"),
        ("get", f"/harness/episodes/{episode['episode']}/snapshot"),
        ("post", f"/harness/episodes/{episode['episode']}/verdict"),
        ("get", "/harness/episodes"),
        ("delete", f"/harness/episodes/{episode['episode']}"),
    ]
    for headers in ({}, {"Authorization": f"Bearer {page_token}"}, {"Authorization": "Bearer wrong"}):
        for method, path in routes:
            assert getattr(client, method)(path, headers=headers).status_code == 401, (method, path, headers)
    home = client.get(episode["url"]).text
    assert TOKEN not in home and episode["episode"] not in home


def test_an_unknown_page_token_is_a_404(client: TestClient) -> None:
    assert client.get("/e/not-a-token/").status_code == 404


def golden_cancel(client: TestClient, base: str, email: str, order_id: str, reason: str) -> str:
    """The HTTP requests a person's clicks make to cancel an order: find the customer, open the order, confirm."""
    found = client.get(f"{base}customer/", params={"find_email": email}, follow_redirects=False)
    assert found.status_code == 303
    customer = client.get(found.headers["location"]).text
    assert f'data-testid="row-{order_id}"' in customer
    order = client.get(f"{base}order/{order_id}").text
    assert 'data-testid="action-cancel_order"' in order
    form = client.get(f"{base}order/{order_id}/do/cancel_order")
    assert 'data-testid="field-reason"' in form.text
    confirm = client.post(f"{base}order/{order_id}/do/cancel_order", data={"reason": reason})
    assert confirm.status_code == 200 and 'data-testid="confirm"' in confirm.text
    done = client.post(
        f"{base}order/{order_id}/do/cancel_order", data={"reason": reason, "confirmed": "yes"}, follow_redirects=False
    )
    assert done.status_code == 303
    return client.get(done.headers["location"]).text


def test_a_task_done_through_the_pages_passes_its_verifier_and_only_in_its_own_episode(
    client: TestClient, retail_package: Path
) -> None:
    package = load_package(open_package(retail_package))
    task = next(
        t
        for t in package.tasks.values()
        if t.oracle[-1].name == "cancel_order" and t.kind == "write" and "email" in t.oracle[0].arguments
    )
    order_id = task.oracle[-1].arguments["order_id"]
    reason = task.oracle[-1].arguments["reason"]
    mine, other = new_episode(client, task.id), new_episode(client, task.id)
    verdict = client.post(f"/harness/episodes/{mine['episode']}/verdict", headers=AUTH).json()
    assert verdict["passed"] is False  # the initial state does not satisfy the task
    page = golden_cancel(client, mine["url"], person_email(retail_package, task), order_id, reason)
    assert 'data-testid="flash"' in page
    assert client.post(f"/harness/episodes/{mine['episode']}/verdict", headers=AUTH).json()["passed"] is True
    changes = client.get(f"/harness/episodes/{mine['episode']}/diff", headers=AUTH).json()["changes"]
    assert {"entity": "order", "key": order_id} in [{"entity": c["entity"], "key": c["key"]} for c in changes]
    assert client.get(f"/harness/episodes/{other['episode']}/diff", headers=AUTH).json()["changes"] == []
    client.post(f"/harness/episodes/{mine['episode']}/reset", headers=AUTH)
    assert client.get(f"/harness/episodes/{mine['episode']}/diff", headers=AUTH).json()["changes"] == []


def test_a_destructive_action_waits_for_confirmation_and_bad_input_changes_nothing(client: TestClient) -> None:
    episode = new_episode(client)
    base = episode["url"]
    state = client.get(f"/harness/episodes/{episode['episode']}/state", headers=AUTH).json()
    order = next(row for row in state["tables"]["order"] if row["status"] in ("pending", "processing"))
    client.post(f"{base}order/{order['order_id']}/do/cancel_order", data={"reason": "other"})
    assert client.get(f"/harness/episodes/{episode['episode']}/diff", headers=AUTH).json()["changes"] == []
    item = state["tables"]["order_item"][0]
    bad = client.post(f"{base}order_item/{item['item_id']}/do/change_item_quantity", data={"quantity": "many"})
    assert bad.status_code == 422 and 'data-testid="error-quantity"' in bad.text
    assert client.get(f"/harness/episodes/{episode['episode']}/diff", headers=AUTH).json()["changes"] == []


def test_a_success_line_cannot_be_faked_through_the_url(client: TestClient) -> None:
    episode = new_episode(client)
    state = client.get(f"/harness/episodes/{episode['episode']}/state", headers=AUTH).json()
    order_id = state["tables"]["order"][0]["order_id"]
    page = client.get(f"{episode['url']}order/{order_id}", params={"done": "cancel_order", "flash": "Done"}).text
    assert 'data-testid="flash"' not in page


def test_static_files_are_served_and_nothing_outside_them(client: TestClient) -> None:
    base = new_episode(client)["url"]
    for name in ("app.css", "shared.css"):
        css = client.get(f"{base}static/{name}")
        assert css.status_code == 200 and "text/css" in css.headers["content-type"]
    for escape in ("../../envforge.yaml", "..%2F..%2Ftasks.jsonl", "../base.html", "../../shared/_ui.html"):
        assert client.get(f"{base}static/{escape}").status_code == 404


def test_every_link_on_the_main_screens_stays_inside_the_episode(client: TestClient) -> None:
    base = new_episode(client)["url"]
    pages = [client.get(base).text, client.get(f"{base}order/").text, client.get(f"{base}customer/").text]
    for page in pages:
        for target in re.findall(r'(?:href|action|src)="([^"]+)"', page):
            assert target.startswith(base.rstrip("/")) or target.startswith("#"), target


def test_serve_app_with_a_bad_app_name_or_no_apps_folder_is_a_one_line_error(
    retail_package: Path, tmp_path: Path
) -> None:
    import shutil

    from tests.conftest import envforge_cli

    bad = envforge_cli("serve", str(retail_package), "--app", "tablet")
    assert bad.returncode == 2 and "'--app'" in bad.stderr and "'tablet' is not one of 'web', 'phone'" in bad.stderr
    bare = tmp_path / "bare"
    shutil.copytree(retail_package, bare)
    shutil.rmtree(bare / "apps")
    missing = envforge_cli("serve", str(bare), "--app", "web", "--port", "0")
    assert missing.returncode == 2 and "no web app in this package" in missing.stderr
    assert len(missing.stderr.strip().splitlines()) == 1

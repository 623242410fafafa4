"""Both apps in a real Chromium: a task done by clicking passes its verifier, and the page logs no error."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from envforge.runtime.apps.server import AppServer
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.browser import expect, person_email, serve, watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser

TOKEN = "harness-secret"


def harness(base_url: str, method: str, path: str) -> Any:
    request = urllib.request.Request(
        f"{base_url}{path}",
        method=method,
        headers={"Authorization": f"Bearer {TOKEN}"},
        data=b"" if method == "POST" else None,
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=10) as response:
        return json.load(response)


@pytest.mark.parametrize(("kind", "viewport"), [("web", (1280, 800)), ("phone", (390, 844))])
def test_cancelling_an_order_by_clicking_passes_the_task_verifier(
    chromium: Browser, retail_package: Path, kind: str, viewport: tuple[int, int]
) -> None:
    package = load_package(open_package(retail_package))
    task = next(
        t
        for t in package.tasks.values()
        if t.kind == "write" and t.oracle[-1].name == "cancel_order" and "email" in t.oracle[0].arguments
    )
    order_id, reason = task.oracle[-1].arguments["order_id"], task.oracle[-1].arguments["reason"]
    server = AppServer(load_package(open_package(retail_package)), "web" if kind == "web" else "phone", TOKEN)
    context = chromium.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    page = context.new_page()
    problems = watch(page)
    try:
        with serve(server.app()) as base_url:
            created = urllib.request.Request(
                f"{base_url}/harness/episodes",
                method="POST",
                data=json.dumps({"task": task.id}).encode(),
                headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
            )
            with urllib.request.build_opener(urllib.request.ProxyHandler({})).open(created, timeout=10) as response:
                episode = json.load(response)
            page.goto(base_url + episode["url"])
            page.get_by_test_id("nav-customer").click()
            page.get_by_test_id("find-email").fill(person_email(retail_package, task))
            page.get_by_test_id("find-submit-email").click()
            page.get_by_test_id(f"row-{order_id}").click()
            if kind == "phone":
                page.get_by_test_id("open-actions").click()
            page.get_by_test_id("action-cancel_order").click()
            page.get_by_test_id("field-reason").select_option(reason)
            page.get_by_test_id("submit").click()
            page.get_by_test_id("confirm").click()
            expect(page.get_by_test_id("flash")).to_be_visible()
            verdict = harness(base_url, "POST", f"/harness/episodes/{episode['episode']}/verdict")
    finally:
        context.close()
    assert verdict["passed"] is True, verdict["reasons"]
    assert problems == []

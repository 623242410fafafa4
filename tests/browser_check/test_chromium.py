"""Chromium from Debian's package, driven by Playwright, against a real local HTTP server.

The smallest round trip a web app test needs: load a page, fill a form by its label, submit it by the
button's role, and check both what the server received and what the browser then shows, with no
console errors or failed requests on the way, and a screenshot of the viewport.
"""

from __future__ import annotations

import html
import struct
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse
from starlette.routing import Route

from tests.browser import VIEWPORT, expect, serve, watch

if TYPE_CHECKING:
    from playwright.sync_api import Page

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
HEAD = '<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>{title}</title></head>'

BODY = """<body>
<form method="post" action="/greet">
  <label for="name">Name</label> <input id="name" name="name" required>
  <button type="submit">Send</button>
</form>
</body></html>"""
FORM = HEAD.format(title="Greeter") + BODY


class Greeter:
    """A page with a form, and the server side that remembers every name posted to it."""

    def __init__(self) -> None:
        self.received: list[str] = []
        self.app = Starlette(
            routes=[Route("/", self.form, methods=["GET"]), Route("/greet", self.greet, methods=["POST"])]
        )

    async def form(self, request: Request) -> HTMLResponse:
        return HTMLResponse(FORM)

    async def greet(self, request: Request) -> HTMLResponse:
        name = parse_qs((await request.body()).decode())["name"][0]
        self.received.append(name)
        body = f"<body><h1>Hello, {html.escape(name)}!</h1><p role='status'>Saved.</p></body></html>"
        return HTMLResponse(HEAD.format(title="Greeted") + body)


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE), data[:8]
    assert data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_form_round_trip(page: Page, tmp_path: Path) -> None:
    greeter = Greeter()
    problems = watch(page)
    with serve(greeter.app) as base_url:
        page.goto(base_url + "/")
        expect(page).to_have_title("Greeter")
        page.get_by_label("Name").fill("Ada Lovelace")
        page.get_by_role("button", name="Send").click()
        expect(page.get_by_role("heading", name="Hello, Ada Lovelace!")).to_be_visible()
        expect(page.get_by_role("status")).to_have_text("Saved.")
        assert greeter.received == ["Ada Lovelace"]
        screenshot = tmp_path / "greeted.png"
        page.screenshot(path=screenshot)
    assert problems == []
    data = screenshot.read_bytes()
    assert len(data) > 1000
    assert png_size(data) == (VIEWPORT["width"], VIEWPORT["height"])

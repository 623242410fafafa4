"""The in-thread client the uitasks stage walks the apps with: a real Starlette app, called in a plain thread and
from inside a running event loop (as in a notebook's kernel), where it hands each request to its worker thread."""

from __future__ import annotations

import asyncio
import threading

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse, RedirectResponse, Response
from starlette.routing import Route

from envforge.runtime.apps.local_client import LocalClient


async def page(request: Request) -> Response:
    return PlainTextResponse(f"{request.method} {request.url.path}?{request.url.query} {threading.get_ident()}")


async def form(request: Request) -> Response:
    body = (await request.body()).decode()
    return RedirectResponse(f"/done?{body}", status_code=303)


APP = Starlette(routes=[Route("/done", page), Route("/form", form, methods=["POST"])])


def walk(client: LocalClient) -> tuple[str, int, str]:
    answer = client.post("/form", content="name=ada", headers={"Content-Type": "application/x-www-form-urlencoded"})
    return answer.url, answer.status_code, answer.text


def test_a_post_answered_with_303_is_followed_by_a_get_in_the_callers_thread() -> None:
    with LocalClient(APP) as client:
        url, status, text = walk(client)
    assert (url, status) == ("http://testserver/done?name=ada", 200)
    assert text == f"GET /done?name=ada {threading.get_ident()}"


def test_inside_a_running_event_loop_the_app_runs_on_the_clients_worker_thread() -> None:
    async def in_a_loop() -> tuple[str, int, str]:
        with LocalClient(APP) as client:
            return walk(client)

    url, status, text = asyncio.run(in_a_loop())
    assert (url, status) == ("http://testserver/done?name=ada", 200)
    assert text.startswith("GET /done?name=ada ") and text != f"GET /done?name=ada {threading.get_ident()}"

"""A synchronous client for an app served in this very thread, for the code that walks the apps page by page (the
`uitasks` stage, `envforge check`'s UI checks).

Starlette's TestClient runs the app on an event loop in a portal thread and hands every ASGI message across
threads; the `uitasks` stage makes thousands of page requests, and most of its time went to those hand-overs. Here
the app runs on one event loop owned by the client (`asyncio.Runner`) in the caller's thread, so a request is a
plain call. Where the caller's thread runs an event loop already (a notebook's kernel), a loop cannot be run
inside it: the client's loop then lives in one worker thread, one hand-over per request. The apps have no
lifespan and no streaming responses, so the client needs neither.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self, TypeVar
from urllib.parse import urljoin, urlsplit

from starlette.types import ASGIApp, Message

BASE_URL = "http://testserver"
MAX_REDIRECTS = 20
REDIRECTS = frozenset({301, 302, 303, 307, 308})
T = TypeVar("T")


def _loop_running() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


@dataclass(frozen=True)
class LocalResponse:
    """What a request got after its redirects: the final URL, status and body."""

    url: str
    status_code: int
    headers: dict[str, str]
    content: bytes

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


class LocalClient:
    """GET and POST against an ASGI app in this thread, following redirects as a browser does (a 303 after a form
    post becomes a GET)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app
        self._runner = asyncio.Runner()
        self._worker = ThreadPoolExecutor(1, thread_name_prefix="local-client") if _loop_running() else None

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        if self._worker is None:
            self._runner.close()
            return
        self._worker.submit(self._runner.close).result()
        self._worker.shutdown()

    def _run(self, call: Coroutine[Any, Any, T]) -> T:
        if self._worker is None:
            return self._runner.run(call)
        return self._worker.submit(self._runner.run, call).result()

    def get(self, url: str) -> LocalResponse:
        return self._follow("GET", url, b"", {})

    def post(self, url: str, content: str | bytes = b"", headers: dict[str, str] | None = None) -> LocalResponse:
        body = content.encode() if isinstance(content, str) else content
        return self._follow("POST", url, body, headers or {})

    def _follow(self, method: str, url: str, body: bytes, headers: dict[str, str]) -> LocalResponse:
        url = urljoin(f"{BASE_URL}/", url)
        for _ in range(MAX_REDIRECTS):
            status, answered, content = self._run(self._call(method, url, body, headers))
            location = answered.get("location")
            if status not in REDIRECTS or location is None:
                return LocalResponse(url, status, answered, content)
            url = urljoin(url, location)
            if status == 303 or (status in (301, 302) and method == "POST"):
                method, body, headers = "GET", b"", {}
        raise RuntimeError(f"{url}: more than {MAX_REDIRECTS} redirects")

    async def _call(
        self, method: str, url: str, body: bytes, headers: dict[str, str]
    ) -> tuple[int, dict[str, str], bytes]:
        parts = urlsplit(url)
        sent = {"host": parts.netloc, "content-length": str(len(body)), **{k.lower(): v for k, v in headers.items()}}
        scope = {
            "type": "http",
            "asgi": {"version": "3.0"},
            "http_version": "1.1",
            "method": method,
            "scheme": parts.scheme,
            "path": parts.path,
            "raw_path": parts.path.encode(),
            "query_string": parts.query.encode(),
            "root_path": "",
            "headers": [(name.encode("latin-1"), value.encode("latin-1")) for name, value in sent.items()],
            "client": ("testclient", 50000),
            "server": (parts.hostname or "testserver", parts.port or 80),
        }
        requested = False

        async def receive() -> Message:
            nonlocal requested
            if requested:
                return {"type": "http.disconnect"}
            requested = True
            return {"type": "http.request", "body": body, "more_body": False}

        status = 500
        answered: dict[str, str] = {}
        chunks: list[bytes] = []

        async def send(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                answered.update((k.decode("latin-1").lower(), v.decode("latin-1")) for k, v in message["headers"])
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))

        await self.app(scope, receive, send)
        return status, answered, b"".join(chunks)

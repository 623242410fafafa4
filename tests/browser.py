"""Headless Chromium for tests: Debian's `chromium` package driven by Playwright's sync API.

A conftest.py makes the fixtures available to its folder by importing them:

    from tests.browser import chromium, page  # noqa: F401  (pytest fixtures)

- `chromium` (module): Playwright's driver and one launched Chromium (≈0.5 s together) for the
  tests of one module; make your own contexts with it (`chromium.new_context()`), and close them.
- `page` (function): a `Page` in a fresh `BrowserContext` (1280x720, 10 s default timeout),
  closed after the test. A context is the cheap isolation: cookies and storage start empty. The
  seconds it took go to the test's user_properties (junitxml): browser_new_context_s, _new_page_s.

Test modules import playwright's names only for the type checker (`if TYPE_CHECKING:`) and take
`expect` from here: then a missing playwright reaches the fixtures, which say so (below), instead of
breaking collection of the whole suite.

`watch(page)` collects what should not happen on a page (console errors, uncaught exceptions,
failed requests, HTTP errors) as lines to assert empty; `serve(app)` runs an ASGI app on a free
local port in a thread and yields its base URL.

Chromium is found as `$ENVFORGE_CHROMIUM`, /usr/bin/chromium, or `chromium` / `chromium-browser`
on PATH; Playwright (the `web` extra) drives it by its path: never `playwright install`. When
either is missing, a test that needs them fails under CI=true and is skipped elsewhere, with the
reason and how to install it in the summary; never silently.

Playwright's sync API marks its event loop as running on the main thread between calls, and
`asyncio.run()` refuses to start inside a running loop. So the loop is marked only while a test
holds `chromium` or `page` and cleared after: tests elsewhere in the session run asyncio as usual.
Inside a browser test, run asyncio code in another thread.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

import pytest

from envforge.ir.tasks import TaskSpec
from envforge.runtime.apps.chromium import CHROMIUM_ARGS as LIBRARY_CHROMIUM_ARGS
from envforge.runtime.apps.chromium import find_chromium as library_find_chromium
from envforge.runtime.apps.replay import watch
from envforge.runtime.apps.threaded import free_port
from envforge.runtime.apps.threaded import serve_in_thread as serve

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, Playwright, expect
else:

    def expect(*args: Any, **kwargs: Any) -> Any:
        """playwright's `expect`, imported on first use, so that test modules import without playwright."""
        from playwright.sync_api import expect as playwright_expect

        return playwright_expect(*args, **kwargs)


__all__ = [
    "CHROMIUM_ARGS",
    "DEFAULT_TIMEOUT_MS",
    "VIEWPORT",
    "ChromiumSession",
    "chromium",
    "expect",
    "find_chromium",
    "free_port",
    "page",
    "serve",
    "unavailable",
    "watch",
]

CHROMIUM_ARGS = LIBRARY_CHROMIUM_ARGS
VIEWPORT = {"width": 1280, "height": 720}
DEFAULT_TIMEOUT_MS = 10_000
INSTALL_CHROMIUM = "install it with `apt-get install -y chromium` (Debian) or set ENVFORGE_CHROMIUM to its executable"
INSTALL_PLAYWRIGHT = "install the `web` extra: `pip install -e '.[web]'` (never `playwright install`)"


def unavailable(reason: str) -> NoReturn:
    """Fail under CI (the test command must run it), skip with the reason elsewhere."""
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(reason, pytrace=False)
    pytest.skip(reason)


def find_chromium() -> Path:
    """The Chromium executable the library would use, or a failure (under CI) / skip saying how to get one."""
    found = library_find_chromium()
    if found is None or not os.access(found, os.X_OK):
        unavailable(f"Chromium not found ($ENVFORGE_CHROMIUM, /usr/bin/chromium, chromium on PATH); {INSTALL_CHROMIUM}")
    return found


class ChromiumSession:
    """Playwright and one launched Chromium, for the tests of one module.

    Module scope, not session scope: Playwright's sync API keeps an event loop marked as running on the
    main thread while it is started, which breaks `asyncio.run` in every later test. Stopped at the end
    of the module, it leaves the rest of the session untouched; browser modules themselves use the sync API.
    """

    def __init__(self, executable: Path) -> None:
        try:
            from playwright.sync_api import Error, sync_playwright
        except ImportError:
            unavailable(f"playwright is not installed; {INSTALL_PLAYWRIGHT}")
        started = time.perf_counter()
        self.playwright: Playwright = sync_playwright().start()
        self.driver_start_s = time.perf_counter() - started
        started = time.perf_counter()
        try:
            self.browser: Browser = self.playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        except Error as error:
            self.playwright.stop()
            first_line = str(error).strip().splitlines()[0]
            pytest.fail(f"Chromium at {executable} did not start: {first_line}", pytrace=False)
        self.launch_s = time.perf_counter() - started
        self.executable = executable

    def close(self) -> None:
        self.browser.close()
        self.playwright.stop()


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    session = ChromiumSession(find_chromium())
    try:
        yield session.browser
    finally:
        session.close()


@pytest.fixture
def page(chromium: Browser, request: pytest.FixtureRequest) -> Iterator[Page]:
    started = time.perf_counter()
    context = chromium.new_context(viewport={"width": VIEWPORT["width"], "height": VIEWPORT["height"]})
    context.set_default_timeout(DEFAULT_TIMEOUT_MS)
    created = time.perf_counter()
    new_page = context.new_page()
    request.node.user_properties.append(("browser_new_context_s", round(created - started, 4)))
    request.node.user_properties.append(("browser_new_page_s", round(time.perf_counter() - created, 4)))
    try:
        yield new_page
    finally:
        context.close()


def person_email(package: Path, task: TaskSpec) -> str:
    """The email of the person a retail task serves, as the app's find-by-email form wants it (the user may
    have stated only a phone number)."""
    with closing(sqlite3.connect(package / "state.sqlite")) as db:
        row = db.execute("SELECT email FROM customer WHERE customer_id = ?", (task.scenario.person,)).fetchone()
    return str(row[0])

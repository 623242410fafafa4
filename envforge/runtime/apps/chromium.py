"""Finding and launching the system's Chromium for the apps (Playwright drives it; it never downloads one)."""

from __future__ import annotations

import os
import shutil
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from envforge.errors import UserInputError

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Playwright

CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root, where Chromium's sandbox refuses to start
    "--disable-gpu",
    # With the network closed, Chromium would otherwise keep trying to reach its vendor's hosts.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
INSTALL_HINT = (
    "install Debian's chromium (apt-get install -y --no-install-recommends chromium) or set ENVFORGE_CHROMIUM, "
    'and playwright with pip install -e ".[web]" (never `playwright install`)'
)


def find_chromium() -> Path | None:
    """`$ENVFORGE_CHROMIUM`, `/usr/bin/chromium`, or `chromium`/`chromium-browser` on PATH."""
    chosen = os.environ.get("ENVFORGE_CHROMIUM")
    if chosen:
        return Path(chosen) if Path(chosen).is_file() else None
    default = Path("/usr/bin/chromium")
    if default.is_file() and os.access(default, os.X_OK):
        return default
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return Path(found)
    return None


WEB_VIEWPORT = {"width": 1280, "height": 800}
PHONE_VIEWPORT = {"width": 390, "height": 844}


def context_options(app: str) -> dict[str, Any]:
    """Browser-context settings for an app: a desktop window, or a touch phone screen."""
    if app == "phone":
        return {"viewport": PHONE_VIEWPORT, "is_mobile": True, "has_touch": True}
    return {"viewport": WEB_VIEWPORT}


@dataclass
class _Driver:
    playwright: Playwright
    browsers: dict[Path, Browser] = field(default_factory=dict)
    users: int = 0


class _Browsers:
    """Playwright and its launched Chromium, shared by the open envs of a thread.

    Playwright's sync API runs one driver per thread (a second `start()` in the same thread fails), so
    the envs of one thread, e.g. a `SyncVectorEnv`'s, share it; each env has its own browser context.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    def acquire(self, executable: Path) -> Browser:
        from playwright.sync_api import Error, sync_playwright

        driver: _Driver | None = getattr(self._local, "driver", None)
        if driver is None:
            driver = self._local.driver = _Driver(sync_playwright().start())
        if executable not in driver.browsers:
            try:
                launched = driver.playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            except Error as error:
                if driver.users == 0:
                    self._stop(driver)
                raise UserInputError(
                    f"Chromium at {executable} did not start: {str(error).strip().splitlines()[0]}; {INSTALL_HINT}"
                ) from None
            driver.browsers[executable] = launched
        driver.users += 1
        return driver.browsers[executable]

    def release(self) -> None:
        driver: _Driver = self._local.driver
        driver.users -= 1
        if driver.users == 0:
            self._stop(driver)

    def _stop(self, driver: _Driver) -> None:
        self._local.driver = None
        for browser in driver.browsers.values():
            browser.close()
        driver.playwright.stop()


shared_chromium = _Browsers()


@contextmanager
def launched_chromium() -> Iterator[Browser]:
    """The system's Chromium, driven by Playwright, for the block; a one-line `UserInputError` when it cannot run."""
    executable = find_chromium()
    if executable is None:
        raise UserInputError(f"no Chromium found; {INSTALL_HINT}")
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        raise UserInputError(f"playwright is not installed; {INSTALL_HINT}") from None
    browser = shared_chromium.acquire(executable)
    try:
        yield browser
    finally:
        shared_chromium.release()

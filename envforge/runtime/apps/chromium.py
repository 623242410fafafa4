"""Finding and launching the system's Chromium for the apps (Playwright drives it; it never downloads one)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

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

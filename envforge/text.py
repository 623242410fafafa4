"""How field names and values read in sentences (task wording, UI instructions)."""

from __future__ import annotations

import re
from typing import Any

_LONG_WORD = re.compile(r"\S{120,}")
MESSAGE_MAX = 1000


def humanize(name: str) -> str:
    return name.replace("_", " ")


def show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return humanize(value) if isinstance(value, str) and "_" in value and " " not in value else str(value)


def clip_message(message: str) -> str:
    """An error message that quotes what it refuses, kept short: a huge quoted value would bury what is wrong
    and how to fix it, and repeat megabytes back to the sender."""
    clipped = _LONG_WORD.sub(lambda match: f"{match.group()[:57]}...", message)
    return clipped if len(clipped) <= MESSAGE_MAX else f"{clipped[: MESSAGE_MAX - 3]}..."

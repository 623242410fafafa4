"""How field names and values read in sentences (task wording, UI instructions)."""

from __future__ import annotations

from typing import Any


def humanize(name: str) -> str:
    return name.replace("_", " ")


def show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return humanize(value) if isinstance(value, str) and "_" in value and " " not in value else str(value)

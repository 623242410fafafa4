"""Helpers for tests that break the retail blueprint one edit at a time."""

from __future__ import annotations

from tests.conftest import REPO

RETAIL = REPO / "blueprints" / "retail.yaml"
RETAIL_TEXT = RETAIL.read_text(encoding="utf-8")


def edit(old: str, new: str, text: str = RETAIL_TEXT) -> str:
    """`text` with the one occurrence of `old` replaced by `new`."""
    assert text.count(old) == 1, f"the edit target {old!r} must occur exactly once"
    return text.replace(old, new)


def line_of(text: str, needle: str) -> int:
    """1-based line of the one occurrence of `needle` in `text`."""
    assert text.count(needle) == 1, f"{needle!r} must occur exactly once"
    return text[: text.index(needle)].count("\n") + 1

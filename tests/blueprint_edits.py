"""Helpers for tests that break the retail blueprint one edit at a time."""

from __future__ import annotations

from tests.conftest import REPO

RETAIL = REPO / "blueprints" / "retail.yaml"
RETAIL_TEXT = RETAIL.read_text(encoding="utf-8")
LIBRARY_TEXT = (REPO / "blueprints" / "library.yaml").read_text(encoding="utf-8")


def edit(old: str, new: str, text: str = RETAIL_TEXT) -> str:
    """`text` with the one occurrence of `old` replaced by `new`."""
    assert text.count(old) == 1, f"the edit target {old!r} must occur exactly once"
    return text.replace(old, new)


def line_of(text: str, needle: str) -> int:
    """1-based line of the one occurrence of `needle` in `text`."""
    assert text.count(needle) == 1, f"{needle!r} must occur exactly once"
    return text[: text.index(needle)].count("\n") + 1


ORDER_REF = "      - {name: item_id, type: ref}\n      - name: reason"
RETURN_RELATION = "  - {name: item_returns,"
RETURN_HEAD = "  - name: return_request\n    description: A customer's request to send an item back.\n"


def two_chains(owner: str | None = None) -> str:
    """Retail with `return_request` also linked to its order (and `owner: <owner>` on it when given)."""
    text = edit(
        ORDER_REF,
        "      - {name: item_id, type: ref}\n      - {name: order_id, type: ref, nullable: true}\n      - name: reason",
    )
    text = edit(
        RETURN_RELATION,
        "  - {name: return_order, child: return_request, field: order_id, parent: order, required: false}\n"
        + RETURN_RELATION,
        text,
    )
    if owner is not None:
        text = edit(RETURN_HEAD, f"{RETURN_HEAD}    owner: {owner}\n", text)
    return text

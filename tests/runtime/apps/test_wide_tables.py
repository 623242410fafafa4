"""Wide content in a real Chromium: a web table wider than its card scrolls sideways inside it (its last column
reachable, its key column kept in view, its right edge faded while more lies that way) instead of being cut off,
and no phone screen is wider than the phone."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from envforge.runtime.apps.chromium import PHONE_VIEWPORT, context_options
from envforge.runtime.apps.pickers import PickerSource
from envforge.runtime.apps.server import AppServer
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from tests.browser import serve, watch

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page, ViewportSize

NARROW: ViewportSize = {"width": 900, "height": 800}
"""A desktop window narrow enough that a list of people does not fit its table card."""
FADED = "100% 100%"
"""The table's mask while more columns lie to the right (the fade at its right edge in view)."""

_MASK = "getComputedStyle(document.querySelector('.table-scroll')).maskSize"
_TABLE_JS = """() => {
  const box = document.querySelector('.table-scroll');
  const rect = (el) => el.getBoundingClientRect();
  const head = box.querySelectorAll('thead th');
  return {
    overflowX: getComputedStyle(box).overflowX,
    scrollWidth: box.scrollWidth, clientWidth: box.clientWidth, scrollLeft: box.scrollLeft,
    mask: getComputedStyle(box).maskSize,
    box: [rect(box).left, rect(box).right],
    first: [rect(head[0]).left, rect(head[0]).right],
    last: [rect(head[head.length - 1]).left, rect(head[head.length - 1]).right],
    page: [document.documentElement.scrollWidth, document.documentElement.clientWidth],
  };
}"""


def _table(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(_TABLE_JS)
    return found


def test_a_table_wider_than_its_card_scrolls_sideways_and_shows_its_last_column(
    chromium: Browser, retail_package: Path
) -> None:
    server = AppServer(load_package(open_package(retail_package)), "web")
    episode = server.episodes.open_free()
    context = chromium.new_context(viewport=NARROW)
    page = context.new_page()
    try:
        with serve(server.app()) as base_url:
            # People are listed only once searched for: a search that matches most of them.
            page.goto(f"{base_url}/e/{episode.token}/customer/?first_name=a")
            # the fade follows the scroll position, from the frame after it changes
            page.wait_for_function(f"faded => {_MASK} === faded", arg=FADED)
            start = _table(page)
            assert start["overflowX"] == "auto" and start["scrollWidth"] > start["clientWidth"]
            assert start["page"][0] == start["page"][1], "the table scrolls, not the page"
            assert start["last"][1] > start["box"][1]
            page.locator(".table-scroll").evaluate("box => { box.scrollLeft = box.scrollWidth; }")
            page.wait_for_function(f"faded => {_MASK} !== faded", arg=FADED)
            end = _table(page)
            # the last column is wholly inside the card once scrolled to, the key column still at its left edge
            assert end["box"][0] <= end["last"][0] and end["last"][1] <= end["box"][1] + 1
            assert abs(end["first"][0] - end["box"][0]) <= 1 and end["scrollLeft"] > 0
            page.goto(f"{base_url}/e/{episode.token}/product/")
            fits = _table(page)
            assert fits["scrollWidth"] <= fits["clientWidth"] and fits["mask"] != FADED, (
                "a table that fits is not faded"
            )
    finally:
        context.close()


def test_no_phone_screen_is_wider_than_the_phone(chromium: Browser, packages: dict[str, Path]) -> None:
    context = chromium.new_context(**context_options("phone"))
    page = context.new_page()
    problems = watch(page)
    wider: list[tuple[str, int]] = []
    try:
        for domain in ("retail", "banking", "clinic"):
            server = AppServer(load_package(open_package(packages[domain])), "phone")
            spec = server.pages.spec
            episode = server.episodes.open_free()
            with serve(server.app()) as base_url:
                home = f"{base_url}/e/{episode.token}"
                paths = [f"/{screen.entity}/" for screen in spec.lists]
                for screen in spec.lists:
                    page.goto(f"{home}/{screen.entity}/")
                    first = page.locator("[data-testid^=row-]").first
                    if first.count():
                        paths.append(str(first.get_attribute("href")).removeprefix(f"/e/{episode.token}"))
                source = PickerSource(server.package.env, episode.session)
                for form in spec.actions:
                    if form.record_param is not None and source.pickers(form, {}, {}):
                        runtime = server.package.env.entities[form.entity]
                        statement = f"{runtime.statements.select_all} LIMIT 1"
                        record = episode.session.connection.execute(statement).fetchone()
                        paths.append(f"/{form.entity}/{record[runtime.key]}/do/{form.tool}")
                for path in paths:
                    page.goto(home + path)
                    width = page.evaluate("() => document.documentElement.scrollWidth")
                    if width > PHONE_VIEWPORT["width"]:
                        wider.append((f"{domain}{path}", width))
    finally:
        context.close()
    assert wider == []
    assert problems == []

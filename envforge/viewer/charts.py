"""Bar charts as inline SVG, drawn here so that the site needs no script library."""

from __future__ import annotations

from collections.abc import Mapping
from html import escape

from markupsafe import Markup

BAR_HEIGHT, GAP = 22, 6
LABEL_WIDTH, BAR_WIDTH, VALUE_WIDTH = 150, 300, 80
"""Pixels: two charts side by side fit the page's width."""
COLOURS = {"bar": "#4f7cac", "fail": "#c8553d"}


def bar_chart(title: str, values: Mapping[str, float], *, unit: str = "", colour: str = "bar") -> Markup:
    """One horizontal bar per label, scaled to the largest value, the value written after the bar."""
    top = max(values.values(), default=0.0) or 1.0
    height = len(values) * (BAR_HEIGHT + GAP) + GAP
    width = LABEL_WIDTH + BAR_WIDTH + VALUE_WIDTH
    rows = []
    for index, (label, value) in enumerate(values.items()):
        y = GAP + index * (BAR_HEIGHT + GAP)
        length = BAR_WIDTH * value / top
        shown = f"{value:g}{unit}" if isinstance(value, int) or value == int(value) else f"{value:.2f}{unit}"
        rows.append(
            f'<g class="bar" data-label="{escape(label)}" data-value="{value}">'
            f'<text x="{LABEL_WIDTH - 8}" y="{y + BAR_HEIGHT - 6}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{LABEL_WIDTH}" y="{y}" width="{length:.1f}" height="{BAR_HEIGHT}" fill="{COLOURS[colour]}"/>'
            f'<text x="{LABEL_WIDTH + length + 6:.1f}" y="{y + BAR_HEIGHT - 6}">{escape(shown)}</text></g>'
        )
    return Markup(
        f'<figure class="chart"><figcaption>{escape(title)}</figcaption>'
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" height="{height}" '
        f'role="img" aria-label="{escape(title)}">{"".join(rows)}</svg></figure>'
    )

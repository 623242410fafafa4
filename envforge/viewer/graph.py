"""The tool graph drawn to be read: a box per entity listing its tools, READ and WRITE coloured, in columns from
the records others point at (left) to the records that point at them (right), and a table of what each tool takes
and gives.

The package's own graph links every tool to every tool that can take one of its outputs (hundreds of edges); here
an arrow joins two entities only where a READ of one returns the key of the other, which is the shape a person
plans a chain of calls by.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from html import escape
from typing import Any

from markupsafe import Markup

BOX_WIDTH = 230
COLUMN_GAP = 60
ROW_HEIGHT = 20
HEADER_HEIGHT = 28
BOX_GAP = 22
MARGIN = 16
LEGEND_HEIGHT = 30
COLOURS = {"read": "#2f6db3", "write": "#c4501b"}


@dataclass(frozen=True)
class ToolRow:
    """One line of the table under the picture."""

    name: str
    kind: str
    entity: str
    takes: list[str]
    gives: list[str]
    feeds: int


def entity_links(tools: list[dict[str, Any]]) -> dict[str, set[str]]:
    """entity -> the entities whose key its READ tools return (the records it points at)."""
    links: dict[str, set[str]] = defaultdict(set)
    for tool in tools:
        if tool["kind"] == "read":
            links[tool["entity"]] |= {entity for entity in tool["output_refs"].values() if entity != tool["entity"]}
    return links


def _layers(entities: list[str], links: dict[str, set[str]]) -> dict[str, int]:
    """Each entity's column: one right of the furthest entity it points at (a cycle is cut where it closes)."""
    layer: dict[str, int] = {}

    def place(entity: str, visiting: frozenset[str]) -> int:
        if entity not in layer:
            targets = [target for target in links.get(entity, ()) if target not in visiting and target in entities]
            layer[entity] = 1 + max((place(target, visiting | {entity}) for target in targets), default=-1)
        return layer[entity]

    for entity in entities:
        place(entity, frozenset())
    # Then each entity moves right up to the column before the nearest entity pointing at it, so that no arrow
    # jumps a column (through the boxes there).
    for entity in sorted(entities, key=lambda entity: -layer[entity]):
        pointers = [layer[source] for source, targets in links.items() if entity in targets and source in layer]
        if pointers:
            layer[entity] = max(layer[entity], min(pointers) - 1)
    return layer


def tool_rows(graph: dict[str, Any]) -> list[ToolRow]:
    feeds: dict[str, set[str]] = defaultdict(set)
    for edge in graph["edges"]:
        feeds[edge["source"]].add(edge["target"])
    return [
        ToolRow(
            name=tool["name"],
            kind=tool["kind"],
            entity=tool["entity"],
            takes=[f"{param} ({entity})" for param, entity in tool["param_refs"].items()],
            gives=sorted(set(tool["output_refs"].values())),
            feeds=len(feeds[tool["name"]]),
        )
        for tool in graph["tools"]
    ]


def draw_tool_graph(graph: dict[str, Any]) -> Markup:
    tools: list[dict[str, Any]] = graph["tools"]
    by_entity: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for tool in tools:
        by_entity[tool["entity"]].append(tool)
    entities = list(by_entity)
    links = entity_links(tools)
    layer = _layers(entities, links)
    columns: dict[int, list[str]] = defaultdict(list)
    for entity in entities:
        columns[layer[entity]].append(entity)
    boxes: dict[str, tuple[float, float, float]] = {}
    """entity -> x, y, height of its box."""
    for column in sorted(columns):
        # Boxes sit in the order of what they point at, so that arrows cross as little as a simple rule allows.
        def anchor(entity: str) -> float:
            ys = [boxes[target][1] for target in links.get(entity, ()) if target in boxes]
            return sum(ys) / len(ys) if ys else 0.0

        y: float = MARGIN + LEGEND_HEIGHT
        for entity in sorted(columns[column], key=lambda entity: (anchor(entity), entity)):
            box_height = HEADER_HEIGHT + ROW_HEIGHT * len(by_entity[entity]) + 8
            boxes[entity] = (MARGIN + column * (BOX_WIDTH + COLUMN_GAP), y, box_height)
            y += box_height + BOX_GAP
    width = MARGIN * 2 + (max(columns) + 1) * (BOX_WIDTH + COLUMN_GAP) - COLUMN_GAP
    height = max(top + h for _, top, h in boxes.values()) + MARGIN
    parts = [_legend(), *_arrows(links, boxes)]
    parts += [_box(entity, by_entity[entity], *boxes[entity]) for entity in entities]
    return Markup(
        f'<svg class="toolgraph" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height:.0f}" '
        f'width="{width}" height="{height:.0f}" role="img" aria-label="tool graph">'
        '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" '
        'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#8a8f98"/></marker></defs>'
        f"{''.join(parts)}</svg>"
    )


def _legend() -> str:
    items = []
    for index, kind in enumerate(("read", "write")):
        x = MARGIN + index * 90
        items.append(
            f'<rect x="{x}" y="{MARGIN}" width="14" height="14" rx="3" fill="{COLOURS[kind]}"/>'
            f'<text x="{x + 20}" y="{MARGIN + 12}" class="legend">{kind.upper()}</text>'
        )
    return "".join(items)


def _arrows(links: dict[str, set[str]], boxes: dict[str, tuple[float, float, float]]) -> list[str]:
    """From an entity to each entity whose key it holds, right edge of the one to the left edge of the other."""
    arrows = []
    for entity, targets in sorted(links.items()):
        for target in sorted(targets):
            if entity not in boxes or target not in boxes:
                continue
            tx, ty, _ = boxes[target]
            sx, sy, _ = boxes[entity]
            start = (tx + BOX_WIDTH, ty + HEADER_HEIGHT / 2)
            end = (sx, sy + HEADER_HEIGHT / 2)
            bend = max(40.0, (end[0] - start[0]) / 2)
            arrows.append(
                f'<path class="link" d="M{start[0]:.0f},{start[1]:.0f} C{start[0] + bend:.0f},{start[1]:.0f} '
                f'{end[0] - bend:.0f},{end[1]:.0f} {end[0]:.0f},{end[1]:.0f}" fill="none" stroke="#8a8f98" '
                f'stroke-width="1.5" marker-end="url(#arrow)"><title>{escape(entity)} holds the key of '
                f"{escape(target)}</title></path>"
            )
    return arrows


def _box(entity: str, tools: list[dict[str, Any]], x: float, y: float, height: float) -> str:
    rows = []
    for index, tool in enumerate(sorted(tools, key=lambda tool: (tool["kind"], tool["name"]))):
        row_y = y + HEADER_HEIGHT + index * ROW_HEIGHT
        colour = COLOURS[tool["kind"]]
        rows.append(
            f'<g class="tool {tool["kind"]}" data-tool="{escape(tool["name"])}">'
            f'<rect x="{x + 8}" y="{row_y + 4}" width="10" height="10" rx="2" fill="{colour}"/>'
            f'<text x="{x + 24}" y="{row_y + 14}" fill="{colour}">{escape(tool["name"])}</text></g>'
        )
    return (
        f'<g class="entity" data-entity="{escape(entity)}">'
        f'<rect x="{x}" y="{y}" width="{BOX_WIDTH}" height="{height}" rx="6" fill="#ffffff" stroke="#b8bec8"/>'
        f'<rect x="{x}" y="{y}" width="{BOX_WIDTH}" height="{HEADER_HEIGHT - 4}" rx="6" fill="#eef1f5"/>'
        f'<text x="{x + 10}" y="{y + 17}" class="entity-name">{escape(entity)}</text>'
        f"{''.join(rows)}</g>"
    )

"""A picture of the tool-dependency graph, as deterministic SVG."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt
from matplotlib.patches import FancyArrowPatch

from envforge.ir.toolspec import ToolGraph

ROW_HEIGHT = 0.32
READ_COLOR, WRITE_COLOR = "#dbe9f6", "#fbe3c8"


def render_svg(graph: ToolGraph) -> str:
    """READ tools on the left, WRITE tools on the right, an arrow where an output feeds an argument."""
    reads = [tool for tool in graph.tools if tool.kind == "read"]
    writes = [tool for tool in graph.tools if tool.kind == "write"]
    rows = max(len(reads), len(writes), 1)
    position: dict[str, tuple[float, float]] = {}
    for column, tools in ((0.0, reads), (1.0, writes)):
        offset = (rows - len(tools)) / 2
        for index, tool in enumerate(tools):
            position[tool.name] = (column, -(index + offset))

    kinds = {tool.name: tool.kind for tool in graph.tools}
    drawn = [edge for edge in graph.edges if kinds[edge.source] == "read" and kinds[edge.target] == "write"]
    pairs = sorted({(edge.source, edge.target) for edge in drawn})
    with plt.rc_context({"svg.hashsalt": "envforge", "svg.fonttype": "none", "font.family": "DejaVu Sans"}):
        figure, axes = plt.subplots(figsize=(11, 1.2 + rows * ROW_HEIGHT))
        axes.set_axis_off()
        axes.set_xlim(-0.6, 1.6)
        axes.set_ylim(-rows, 1)
        axes.set_title(
            f"{graph.domain}: {len(reads)} READ tools (left) feed {len(writes)} WRITE tools (right)\n"
            f"an arrow: an output of the left tool supplies an argument of the right one "
            f"({len(pairs)} pairs drawn; {len(graph.edges)} edges in toolgraph.json)",
            fontsize=9,
        )
        for source, target in pairs:
            (_, y0), (_, y1) = position[source], position[target]
            arrow = FancyArrowPatch((0.03, y0), (0.97, y1), arrowstyle="-|>", mutation_scale=7, linewidth=0.4)
            arrow.set_color("#777777")
            arrow.set_alpha(0.4)
            axes.add_patch(arrow)
        for tool in graph.tools:
            x, y = position[tool.name]
            read = tool.kind == "read"
            box = {"boxstyle": "round", "facecolor": READ_COLOR if read else WRITE_COLOR, "linewidth": 0.5}
            axes.text(x, y, tool.name, ha="right" if read else "left", va="center", fontsize=7, bbox=box)
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "envforge"}, bbox_inches="tight")
        plt.close(figure)
    return buffer.getvalue()

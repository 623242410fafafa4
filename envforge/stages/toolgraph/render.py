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

    with plt.rc_context({"svg.hashsalt": "envforge", "svg.fonttype": "none", "font.family": "DejaVu Sans"}):
        figure, axes = plt.subplots(figsize=(11, 1 + rows * ROW_HEIGHT))
        axes.set_axis_off()
        axes.set_xlim(-0.45, 1.45)
        axes.set_ylim(-rows, 1)
        axes.set_title(
            f"{graph.domain}: {len(reads)} READ and {len(writes)} WRITE tools, {len(graph.edges)} edges",
            fontsize=10,
        )
        for edge in graph.edges:
            (x0, y0), (x1, y1) = position[edge.source], position[edge.target]
            if x0 == x1:
                continue
            axes.add_patch(
                FancyArrowPatch(
                    (x0 + 0.2, y0),
                    (x1 - 0.2, y1),
                    arrowstyle="-|>",
                    mutation_scale=6,
                    linewidth=0.4,
                    color="#888888",
                    alpha=0.35,
                )
            )
        for tool in graph.tools:
            x, y = position[tool.name]
            color = READ_COLOR if tool.kind == "read" else WRITE_COLOR
            axes.text(
                x,
                y,
                tool.name,
                ha="center",
                va="center",
                fontsize=7,
                bbox={"boxstyle": "round", "facecolor": color, "linewidth": 0.5},
            )
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": "envforge"}, bbox_inches="tight")
        plt.close(figure)
    return buffer.getvalue()

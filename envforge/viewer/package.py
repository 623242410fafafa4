"""A package's pages: its summary, the task list, a page per task (the golden conversation replayed for real and
its verdict), and the tool graph."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from envforge.errors import PackageError
from envforge.exporters.trajectories import oracle_trajectory
from envforge.ir.tasks import TaskSpec
from envforge.ir.verification import ValidationReport
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.viewer.charts import bar_chart
from envforge.viewer.graph import draw_tool_graph, tool_rows
from envforge.viewer.pages import Site, render


@dataclass(frozen=True)
class Golden:
    """A task's golden conversation as the agent saw it, and the verdict's components; or why it could not run."""

    messages: list[dict[str, Any]]
    components: dict[str, bool]
    error: str = ""


def task_page(task_id: str) -> str:
    return f"task-{task_id}.html"


def _golden(package: EnvPackage, task_id: str) -> Golden:
    try:
        trajectory = oracle_trajectory(package, task_id)
    except PackageError as error:
        # A broken oracle is worth seeing, not a reason to show nothing.
        return Golden([], {}, str(error))
    return Golden(trajectory.messages, trajectory.components)


def package_site(path: Path, *, parent: str = "") -> Site:
    """Every page of the package at `path`; `parent` links back to a suite's index when the package is one of its."""
    opened = open_package(path)
    package = load_package(opened)
    manifest = opened.manifest.model_dump(mode="json")
    report = ValidationReport.model_validate_json(opened.read("report.json"))
    graph: dict[str, Any] = json.loads(opened.read_text("toolgraph.json"))
    tasks = [package.tasks[task_id] for task_id in package.task_ids]
    common = {"env_id": package.env_id, "title": manifest.get("title", package.env_id), "parent": parent}
    site: Site = {
        "index.html": render(
            "package.html.jinja",
            page="summary",
            manifest=manifest,
            report=report,
            tools=graph["tools"],
            charts=_charts(tasks, report),
            **common,
        ),
        "tasks.html": render(
            "tasks.html.jinja", page="tasks", tasks=tasks, kinds=sorted({t.kind for t in tasks}), **common
        ),
        "tools.html": render(
            "tools.html.jinja", page="tools", picture=draw_tool_graph(graph), rows=tool_rows(graph), **common
        ),
    }
    gates = {result.task_id: result for result in report.tasks}
    for task in tasks:
        site[task_page(task.id)] = render(
            "task.html.jinja",
            page="tasks",
            task=task,
            golden=_golden(package, task.id),
            gate=gates.get(task.id),
            **common,
        )
    return site


def _charts(tasks: list[TaskSpec], report: ValidationReport) -> list[Any]:
    bands = Counter(task.difficulty.band for task in tasks)
    return [
        bar_chart("tasks by kind", dict(sorted(Counter(task.kind for task in tasks).items()))),
        bar_chart("tasks by difficulty", {band: bands[band] for band in ("easy", "medium", "hard") if bands[band]}),
        bar_chart("tasks by chain length (calls)", {f"{k} calls": v for k, v in report.chain_lengths.items()}),
    ]

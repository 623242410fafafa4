"""A rollout run's pages: pass@k per task, failure classes, and each trajectory turn by turn with its verdict."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from envforge.ir.verification import RolloutSummary
from envforge.rollouts.solvability import summarize_rollouts
from envforge.rollouts.trajectory import Trajectory, load_trajectories
from envforge.viewer.charts import bar_chart
from envforge.viewer.detect import trajectory_files
from envforge.viewer.pages import Site, render


def trajectory_page(trajectory: Trajectory) -> str:
    return f"trajectory-{trajectory.task_id}-{trajectory.sample}-{trajectory.attempt}.html"


def summarize(trajectories: list[Trajectory]) -> RolloutSummary:
    """pass@k and the rest as envforge computes them, k being the samples per task, as `envforge rollout` counts."""
    return summarize_rollouts(trajectories, max((trajectory.sample for trajectory in trajectories), default=0) + 1)


def run_site(path: Path) -> Site:
    return _run_pages(path.name, load_trajectories(path), parent="")


def _run_pages(run: str, trajectories: list[Trajectory], *, parent: str) -> Site:
    """The pages of one trajectories file."""
    summary = summarize(trajectories)
    failures = Counter(f"{t.failure.cls}:{t.failure.reason}" for t in trajectories if t.failure is not None)
    rates = {task.task_id: 100 * task.passed / task.episodes if task.episodes else 0.0 for task in summary.tasks}
    charts = [bar_chart("pass rate by task", rates, unit="%")]
    if failures:
        charts.append(bar_chart("failures by class and reason", dict(failures.most_common()), colour="fail"))
    common = {"run": run, "parent": parent}
    site: Site = {
        "index.html": render(
            "run.html.jinja",
            summary=summary,
            trajectories=trajectories,
            pages=[trajectory_page(t) for t in trajectories],
            charts=charts,
            **common,
        )
    }
    for trajectory in trajectories:
        site[trajectory_page(trajectory)] = render("trajectory.html.jinja", trajectory=trajectory, **common)
    return site


def runs_site(folder: Path) -> Site:
    """A folder of trajectories files: an index of the runs, and each run's pages in a folder of its own."""
    site: Site = {}
    runs: dict[str, RolloutSummary] = {}
    for path in trajectory_files(folder):
        trajectories = load_trajectories(path)
        for name, data in _run_pages(path.name, trajectories, parent="../index.html").items():
            site[f"{path.stem}/{name}"] = data
        runs[path.stem] = summarize(trajectories)
    site["index.html"] = render("runs.html.jinja", folder=folder.name, runs=runs, parent="")
    return site

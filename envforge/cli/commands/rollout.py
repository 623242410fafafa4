"""`envforge rollout`: a served model on a package's tasks, every episode saved as a trajectory."""

from __future__ import annotations

from envforge.cli.options import AsJson, Package
from envforge.cli.rollout_options import with_rollout_options
from envforge.rollouts.options import RolloutOptions


@with_rollout_options(samples=1)
def rollout(package: Package, options: RolloutOptions, as_json: AsJson = False) -> None:
    """Run a served model on a package's tasks (k episodes each) and save every episode as a trajectory."""
    import envforge
    from envforge.cli.output import episode_progress, print_solvability

    report = envforge.rollout(package, options, progress=episode_progress)
    print_solvability(report.summary, report.path, as_json=as_json)

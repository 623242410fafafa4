"""`envforge rollout`: a served model on a package's tasks, every episode saved as a trajectory."""

from __future__ import annotations

from envforge.cli.options import AsJson, Package
from envforge.cli.rollout_options import RolloutOptions, with_rollout_options


@with_rollout_options(samples=1)
def rollout(package: Package, options: RolloutOptions, as_json: AsJson = False) -> None:
    """Run a served model on a package's tasks (k episodes each) and save every episode as a trajectory."""
    from envforge.cli.output import print_rollouts
    from envforge.cli.rollout import rollout_and_save

    trajectories, target = rollout_and_save(package, options)
    print_rollouts(trajectories, target, as_json=as_json)

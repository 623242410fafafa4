"""`envforge validate`: how solvable a package's tasks are for a served model, into the package's report."""

from __future__ import annotations

from typing import Annotated

import typer

from envforge.cli.options import AsJson, Package
from envforge.cli.rollout_options import RolloutOptions, with_rollout_options


@with_rollout_options(samples=4)
def validate(
    package: Package,
    options: RolloutOptions,
    keep_pass_rate: Annotated[
        str, typer.Option("--keep-pass-rate", help="MIN:MAX pass rate of the training pool, e.g. 0.1:0.9.")
    ] = "0:1",
    as_json: AsJson = False,
) -> None:
    """Measure solvability: k episodes per task, pass@k and pass^k, pools and failure classes into report.json."""
    from envforge.cli.output import print_solvability
    from envforge.cli.rollout import parse_band, rollout_and_save
    from envforge.rollout.solvability import summarize_rollouts, write_rollout_report

    band = parse_band(keep_pass_rate)
    trajectories, target = rollout_and_save(package, options)
    summary = summarize_rollouts(trajectories, options.k, band)
    write_rollout_report(package, summary)
    print_solvability(summary, target, as_json=as_json)

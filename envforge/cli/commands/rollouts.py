"""A served model on a package's tasks: every episode saved as a trajectory (`rollout`), how solvable the tasks
are, into the package's report (`validate`), and stored trajectories judged again by the package's current
verifiers (`reverify`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import ROLLOUT_OPTIONS, AsJson, Package, rollout_options, with_options
from envforge.rollouts.options import RolloutOptions


@with_options(RolloutOptions, ROLLOUT_OPTIONS, rollout_options, k=1)
def rollout(package: Package, options: RolloutOptions, as_json: AsJson = False) -> None:
    """Run a served model on a package's tasks (k episodes each) and save every episode as a trajectory."""
    import envforge
    from envforge.cli.output import episode_progress, print_outcome

    print_outcome(envforge.rollout(package, options, progress=episode_progress), as_json=as_json)


@with_options(RolloutOptions, ROLLOUT_OPTIONS, rollout_options, k=4)
def validate(
    package: Package,
    options: RolloutOptions,
    keep_pass_rate: Annotated[
        str, typer.Option("--keep-pass-rate", help="MIN:MAX pass rate of the training pool, e.g. 0.1:0.9.")
    ] = "0:1",
    as_json: AsJson = False,
) -> None:
    """Measure solvability: k episodes per task, pass@k and pass^k, pools and failure classes into report.json."""
    import envforge
    from envforge.cli.output import episode_progress, print_outcome
    from envforge.rollouts.solvability import parse_band

    band = parse_band(keep_pass_rate)
    report = envforge.validate(package, options, keep_pass_rate=band, progress=episode_progress)
    print_outcome(report, as_json=as_json)


def reverify(
    package: Annotated[Path, typer.Argument(help="The environment package the rollouts ran on.")],
    trajectories: Annotated[Path, typer.Argument(help="A trajectories JSONL file from rollout or validate.")],
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Write the re-judged trajectories here (default: in place).")
    ] = None,
    report: Annotated[
        bool, typer.Option("--report", help="Also rewrite the package report's rollout section from the new verdicts.")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Judge stored trajectories again with the package's current verifiers (after a verifier fix)."""
    from envforge.cli.output import print_outcome
    from envforge.rollouts.reverify import reverify_saved

    print_outcome(reverify_saved(package, trajectories, out, report=report), as_json=as_json)

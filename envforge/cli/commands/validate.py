"""`envforge validate`: how solvable a package's tasks are for a served model, into the package's report."""

from __future__ import annotations

from typing import Annotated

import typer

from envforge.cli.options import AsJson, Package
from envforge.cli.rollout_options import with_rollout_options
from envforge.errors import UserInputError
from envforge.rollouts.options import RolloutOptions


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
    import envforge
    from envforge.cli.output import episode_progress, print_solvability

    band = parse_band(keep_pass_rate)
    report = envforge.validate(package, options, keep_pass_rate=band, progress=episode_progress)
    print_solvability(report.summary, report.path, as_json=as_json)


def parse_band(value: str) -> tuple[float, float]:
    """`MIN:MAX` pass rates, e.g. `0.1:0.9`."""
    low, sep, high = value.partition(":")
    try:
        band = (float(low), float(high)) if sep else (float("nan"), float("nan"))
    except ValueError:
        band = (float("nan"), float("nan"))
    if not (0.0 <= band[0] <= band[1] <= 1.0):
        raise UserInputError(f"--keep-pass-rate: '{value}' is not MIN:MAX with 0 <= MIN <= MAX <= 1 (e.g. 0.1:0.9)")
    return band

"""`envforge reverify`: stored trajectories judged again by the package's current verifiers."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import AsJson


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
    from envforge.cli.output import print_reverify
    from envforge.rollouts.reverify import reverify_saved

    result = reverify_saved(package, trajectories, out, report=report)
    print_reverify(result, out or trajectories, as_json=as_json)

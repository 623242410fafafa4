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
    from envforge.rollout import load_trajectories, save_trajectories
    from envforge.rollout.reverify import reverify as run_reverify
    from envforge.rollout.solvability import summarize_rollouts, write_rollout_report
    from envforge.runtime.episode import load_package
    from envforge.runtime.opened_package import open_package

    loaded = load_package(open_package(package))
    stored = load_trajectories(trajectories)
    result = run_reverify(loaded, stored)
    save_trajectories(out or trajectories, result.trajectories)
    if report:
        k = max((t.sample for t in result.trajectories), default=0) + 1
        previous = _report_band(package)
        write_rollout_report(package, summarize_rollouts(result.trajectories, k, previous))
    print_reverify(result, out or trajectories, as_json=as_json)


def _report_band(package: Path) -> tuple[float, float]:
    """The pass-rate band of the package report's rollouts, kept when their verdicts are rewritten."""
    from envforge.ir.verification import ValidationReport

    current = ValidationReport.model_validate_json((package / "report.json").read_bytes())
    return current.rollouts.keep_pass_rate if current.rollouts is not None else (0.0, 1.0)

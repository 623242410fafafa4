"""`envforge export`: packages as Gymnasium wheels and training datasets."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import AsJson


def export(
    packages: Annotated[
        list[Path], typer.Argument(help="Environment package folders, or folders of packages (e.g. generated/).")
    ],
    formats: Annotated[
        list[str],
        typer.Option("--format", "-f", help="wheel (Gymnasium), verl, trl, sft, mcp or all; repeat or comma-separate."),
    ] = ["all"],  # noqa: B006 (typer reads the default from here)
    out: Annotated[Path, typer.Option("-o", "--out", help="Folder that receives the exports.")] = Path("exports"),
    test_fraction: Annotated[
        float, typer.Option("--test-fraction", min=0.0, max=0.9, help="Share of tasks in the test split.")
    ] = 0.1,
    rollouts: Annotated[
        list[Path] | None,
        typer.Option(
            "--rollouts", help="Trajectory files (rollout/validate) whose passing episodes join the SFT data."
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Export packages as installable Gymnasium wheels and datasets for verl, TRL and SFT (one combined dataset for a suite)."""
    import envforge
    from envforge.cli.output import print_export

    report = envforge.export(packages, out, formats, test_fraction=test_fraction, rollouts=rollouts)
    print_export(report, as_json=as_json)

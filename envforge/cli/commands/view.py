"""Looking at results: a static HTML site over a package, a rollout run or a suite."""

from __future__ import annotations

import webbrowser
from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import AsJson


def view(
    path: Annotated[
        Path,
        typer.Argument(
            help="A package folder, a suite folder (suite.json) or a trajectories .jsonl file (or a folder of them)."
        ),
    ],
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Folder to write the site to (default: PATH-view beside PATH).")
    ] = None,
    open_browser: Annotated[bool, typer.Option("--open", help="Open the site's first page in a web browser.")] = False,
    as_json: AsJson = False,
) -> None:
    """Write a static HTML site (no network needed) to look at a package, a rollout run or a suite."""
    import envforge
    from envforge.cli.output import print_outcome

    report = envforge.view(path, out)
    print_outcome(report, as_json=as_json)
    if open_browser:
        webbrowser.open(report.index.resolve().as_uri())

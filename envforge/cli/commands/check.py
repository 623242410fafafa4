"""`envforge check`: the conformance suite on a package."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import AsJson, Package


def check(
    package: Package,
    junit: Annotated[Path | None, typer.Option("--junit", help="Also write the results as JUnit XML here.")] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="Gate and replay only this many tasks (an even spread).")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Run the conformance suite on a package (integrity, tool tests, verifier gates, determinism, MCP); exit 1 on any failure."""
    from envforge.cli.output import print_checks
    from envforge.files import write_file_atomic
    from envforge.validators.checks import run_checks
    from envforge.validators.junit import render_junit
    from envforge.validators.loaded_package import open_for_check, read_env_id

    opened = open_for_check(package)
    results = run_checks(opened, sample=sample)
    env_id = read_env_id(opened)
    if junit is not None:
        write_file_atomic(junit, render_junit(env_id, results))
    print_checks(env_id, results, as_json=as_json)
    if not all(result.passed for result in results):
        raise typer.Exit(1)

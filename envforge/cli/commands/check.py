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
    import envforge
    from envforge.cli.output import print_checks
    from envforge.validators.loaded_package import open_for_check, read_env_id

    results = envforge.check(package, sample=sample, junit=junit)
    print_checks(read_env_id(open_for_check(package)), results, as_json=as_json)
    if not all(result.passed for result in results):
        raise typer.Exit(1)

"""`envforge lint`: a blueprint's static checks and which actions tasks reach, in seconds, without a package."""

from __future__ import annotations

from typing import Annotated

import typer

from envforge.cli.options import AsJson, Rows, Seed, Tasks


def lint(
    blueprint: Annotated[str, typer.Argument(help="Blueprint YAML file, or a shipped name such as 'retail'.")],
    rows: Rows = 1000,
    tasks: Tasks = 150,
    seed: Seed = 0,
    coverage: Annotated[
        bool, typer.Option("--coverage/--no-coverage", help="Dry-run the stages up to the verifier gate.")
    ] = True,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when there are warnings.")] = False,
    as_json: AsJson = False,
) -> None:
    """Check a blueprint without building a package: every static check, then a dry run of the stages up to the
    verifier gate (generate's counts, a scratch folder) naming each WRITE action no task makes and why. Exit 2 on
    a broken blueprint; warnings exit 0, or 1 with --strict."""
    from envforge.cli.output import print_lint
    from envforge.lint.run import lint_blueprint
    from envforge.pipeline.dag import GenerateConfig
    from envforge.suite.blueprints import resolve_blueprint

    config = GenerateConfig(seed=seed, rows=rows, tasks=tasks) if coverage else None
    report = lint_blueprint(resolve_blueprint(blueprint), config, shown=blueprint)
    print_lint(report, as_json=as_json)
    if strict and report.warnings:
        raise typer.Exit(1)

"""Writing blueprints: a starting one (`new`), one checked without building it (`lint`), and the blueprint
JSON Schema (`schema`)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import AsJson, MaxRows, Rows, Seed, Tasks
from envforge.ir.row_budget import DEFAULT_MAX_ROWS


def new(
    domain: Annotated[str, typer.Argument(help="The domain's name, lower_snake_case (e.g. 'pet_clinic').")],
    out: Annotated[
        Path | None, typer.Option("-o", "--out", help="Write the blueprint here (default blueprints/DOMAIN.yaml).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Overwrite the file if it exists.")] = False,
) -> None:
    """Write a starting blueprint that `envforge generate` turns into a package passing `envforge check`."""
    from envforge.suite.scaffold import write_blueprint

    path = out if out is not None else Path("blueprints") / f"{domain}.yaml"
    write_blueprint(domain, path, force=force)
    print(f"wrote {path}; next: envforge lint {path}, then envforge generate {path}")


def lint(
    blueprint: Annotated[str, typer.Argument(help="Blueprint YAML file, or a shipped name such as 'retail'.")],
    rows: Rows = 1000,
    tasks: Tasks = 150,
    seed: Seed = 0,
    max_rows: MaxRows = DEFAULT_MAX_ROWS,
    coverage: Annotated[
        bool, typer.Option("--coverage/--no-coverage", help="Dry-run the stages up to the verifier gate.")
    ] = True,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 when there are warnings.")] = False,
    as_json: AsJson = False,
) -> None:
    """Check a blueprint without building a package: every static check, then a dry run of the stages up to the
    verifier gate (generate's counts, a scratch folder) naming each WRITE action no task makes and why. Exit 2 on
    a broken blueprint; warnings exit 0, or 1 with --strict."""
    from envforge.cli.output import print_outcome
    from envforge.lint.run import lint_blueprint
    from envforge.pipeline.dag import GenerateConfig
    from envforge.suite.blueprints import resolve_blueprint

    config = GenerateConfig(seed=seed, rows=rows, tasks=tasks, max_rows=max_rows) if coverage else None
    report = lint_blueprint(resolve_blueprint(blueprint), config, shown=blueprint)
    print_outcome(report, as_json=as_json)
    if strict and report.warnings:
        raise typer.Exit(1)


def schema(
    out: Annotated[Path | None, typer.Option("-o", "--out", help="Write to this file instead of stdout.")] = None,
) -> None:
    """Print the blueprint JSON Schema."""
    from envforge.ir.schema import render_schema

    text = render_schema()
    if out is None:
        sys.stdout.write(text)
    else:
        from envforge.files import write_file_atomic

        write_file_atomic(out, text.encode())

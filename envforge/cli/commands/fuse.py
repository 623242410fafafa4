"""`envforge fuse`: one environment built from 2-3 blueprints, the same person in each."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from envforge.cli.options import AsJson, OutDir, Rows, Seed, Tasks


def fuse(
    blueprints: Annotated[
        list[str], typer.Argument(help="2 or 3 blueprint files or shipped names; the first one's person is the user.")
    ],
    out: OutDir = Path("generated"),
    domain: Annotated[
        str | None,
        typer.Option("--domain", help="Domain id of the fused environment (default: the domains joined by _)."),
    ] = None,
    identity: Annotated[
        str | None,
        typer.Option(
            "--identity",
            help="The unique person field that names the same human in each domain (default: one they share, email first).",
        ),
    ] = None,
    prefix: Annotated[
        list[str] | None,
        typer.Option(
            "--prefix", help="DOMAIN=PREFIX: what that domain's names are namespaced with (default: the domain id)."
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Also write the compose: blueprint here, to add bridges to and generate again."),
    ] = None,
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --save's file, and rebuild every stage.")] = False,
    as_json: AsJson = False,
) -> None:
    """Fuse 2-3 domains into one environment: namespaced tables and tools, the same person linked across them by
    a shared identity, merged policies, and tasks of which at least a third cross domains."""
    import envforge
    from envforge.cli.output import print_run, stage_progress, warn

    with stage_progress(enabled=not as_json) as on_stage:
        result = envforge.fuse(
            blueprints,
            out,
            domain=domain,
            identity=identity,
            prefixes=prefix or [],
            save=save,
            seed=seed,
            rows=rows,
            tasks=tasks,
            force=force,
            on_stage=on_stage,
        )
    print_run(result, as_json=as_json)
    warn(result.warnings())

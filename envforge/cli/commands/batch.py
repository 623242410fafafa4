"""`envforge batch`: many blueprints in parallel, in a local process pool or on Ray."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Annotated, Literal

import typer

from envforge.cli.options import AsJson, OutDir, Rows, Seed, Tasks


def batch(
    blueprints: Annotated[
        list[str],
        typer.Argument(
            help="Blueprint files, shipped names, folders (their *.yaml and *.yml) or list files "
            "(@suite.txt or suite.txt: one file, folder or shipped name per line; # comments)."
        ),
    ],
    out: OutDir = Path("generated"),
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    workers: Annotated[int, typer.Option("--workers", min=1, max=64, help="Parallel processes.")] = 2,
    executor: Annotated[
        Literal["local", "ray"],
        typer.Option("--executor", help="local (a process pool of --workers) or ray (one Ray task per blueprint)."),
    ] = "local",
    address: Annotated[
        str | None,
        typer.Option("--address", help="Ray cluster to connect to (with --executor ray); default: start Ray here."),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Generate many packages in parallel, a failing blueprint never stopping the others; write OUT/suite.json.
    Rerunning resumes: finished stages and packages come from the cache."""
    import envforge
    from envforge.cli.output import batch_progress, print_batch

    if address is not None and executor != "ray":
        raise typer.BadParameter("--address is the Ray cluster to use; add --executor ray", param_hint="--address")
    report = envforge.batch(
        blueprints,
        out,
        seed=seed,
        rows=rows,
        tasks=tasks,
        workers=workers,
        executor=executor,
        address=address,
        progress=partial(batch_progress, enabled=not as_json),
    )
    print_batch(report, as_json=as_json)
    failures = [outcome for outcome in report.outcomes if not outcome.ok]
    if failures:
        raise typer.Exit(2 if all(outcome.user_error for outcome in failures) else 1)

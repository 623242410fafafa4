"""`envforge new`: a small, valid, commented blueprint to start a domain from."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


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

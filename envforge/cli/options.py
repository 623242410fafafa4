"""Options and arguments that several commands declare the same way."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

Package = Annotated[Path, typer.Argument(help="An environment package folder.")]
OutDir = Annotated[Path, typer.Option("-o", "--out", help="Folder that receives one package per domain.")]
Seed = Annotated[int, typer.Option("--seed", min=0, help="Seed of every random choice.")]
Rows = Annotated[int, typer.Option("--rows", min=10, max=1_000_000, help="Seed rows across all tables.")]
Tasks = Annotated[int, typer.Option("--tasks", min=1, max=5000, help="Accepted tasks wanted per package.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print a machine-readable summary instead of tables.")]
Host = Annotated[str, typer.Option("--host", help="HTTP interface to bind.")]
Port = Annotated[int, typer.Option("--port", min=0, max=65535, help="HTTP port (0: any free port).")]
CacheDir = Annotated[
    Path | None,
    typer.Option("--cache", help="Response cache folder (default $ENVFORGE_CACHE/llm or ~/.cache/envforge/llm)."),
]
Offline = Annotated[bool, typer.Option("--offline", help="Serve every request from the cache; a miss is an error.")]

# The values of envforge.ir.uitasks.AppKind: typer needs them to build the commands, and importing that
# module would add a tenth of a second to the start of every command.
AppKind = Literal["web", "phone"]

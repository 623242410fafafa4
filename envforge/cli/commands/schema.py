"""`envforge schema`: the blueprint JSON Schema."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer


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

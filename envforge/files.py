"""Folders and files written atomically: a reader sees the old content or the new, never a partial one."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path
from typing import Any


def dump_json(value: Any) -> bytes:
    """Stable, readable JSON bytes (sorted keys, two-space indent, trailing newline)."""
    return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def write_dir_atomic(target: Path, files: dict[str, bytes]) -> None:
    """Replace `target` with a folder holding exactly `files`; readers never see a partial folder."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / f".tmp-{target.name}-{uuid.uuid4().hex[:8]}"
    temporary.mkdir()
    try:
        for name, data in sorted(files.items()):
            path = temporary / name
            path.parent.mkdir(parents=True, exist_ok=True)
            with path.open("wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
        if target.exists():
            retired = target.parent / f".old-{target.name}-{uuid.uuid4().hex[:8]}"
            target.rename(retired)
            temporary.rename(target)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            temporary.rename(target)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def write_file_atomic(target: Path, data: bytes) -> None:
    """Write a file through a temporary sibling and a rename: it is either old or new, never partial."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / f".tmp-{target.name}-{uuid.uuid4().hex[:8]}"
    try:
        with temporary.open("wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        temporary.replace(target)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise


def clean_leftovers(folder: Path) -> None:
    """Remove temporary folders that a killed run left behind."""
    if folder.is_dir():
        for entry in folder.iterdir():
            if entry.name.startswith((".tmp-", ".old-")) and entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)


def read_files(folder: Path) -> dict[str, bytes]:
    """Every file below `folder`, by its path relative to it, in a stable order."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}

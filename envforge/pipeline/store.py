"""The run directory: one folder per stage output, written atomically and verified on read."""

from __future__ import annotations

import json
import os
import shutil
import uuid
from pathlib import Path

from envforge.hashing import hash_bytes, hash_json
from envforge.ir.base import IRModel

RECORD = "artifact.json"


class ArtifactRecord(IRModel):
    """Written last into a stage's folder: what made it and what it holds."""

    schema_version: int = 1
    stage: str
    stage_version: int
    cache_key: str
    content_hash: str
    files: dict[str, str]


def files_hash(files: dict[str, bytes]) -> str:
    return hash_json({name: hash_bytes(data) for name, data in sorted(files.items())})


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


def clean_leftovers(folder: Path) -> None:
    """Remove temporary folders that a killed run left behind."""
    if folder.is_dir():
        for entry in folder.iterdir():
            if entry.name.startswith((".tmp-", ".old-")) and entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)


def read_files(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.name != RECORD
    }


def save_stage(folder: Path, record: ArtifactRecord, files: dict[str, bytes]) -> None:
    payload = {**files, RECORD: (json.dumps(record.model_dump(), indent=2, sort_keys=True) + "\n").encode()}
    write_dir_atomic(folder, payload)


def load_stage(folder: Path, cache_key: str) -> tuple[ArtifactRecord, dict[str, bytes]] | None:
    """The stage's files if the folder is complete, intact and made with `cache_key`; else None."""
    try:
        record = ArtifactRecord.model_validate_json((folder / RECORD).read_bytes())
    except (OSError, ValueError):
        return None
    if record.cache_key != cache_key:
        return None
    files = read_files(folder)
    if {name: hash_bytes(data) for name, data in files.items()} != record.files:
        return None
    return record, files


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

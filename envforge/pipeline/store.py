"""The run directory: one folder per stage output, written atomically and verified on read."""

from __future__ import annotations

import json
from pathlib import Path

from envforge.files import read_files, write_dir_atomic
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


def stage_files(folder: Path) -> dict[str, bytes]:
    """A stage folder's artifact files, without its record."""
    return {name: data for name, data in read_files(folder).items() if name != RECORD}


def save_stage(folder: Path, record: ArtifactRecord, files: dict[str, bytes]) -> None:
    payload = {**files, RECORD: (json.dumps(record.model_dump(), indent=2, sort_keys=True) + "\n").encode()}
    write_dir_atomic(folder, payload)


def has_record(folder: Path) -> bool:
    """Whether the folder holds a stage output of some earlier run, whatever its cache key."""
    return (folder / RECORD).is_file()


def load_stage(folder: Path, cache_key: str) -> tuple[ArtifactRecord, dict[str, bytes]] | None:
    """The stage's files if the folder is complete, intact and made with `cache_key`; else None."""
    try:
        record = ArtifactRecord.model_validate_json((folder / RECORD).read_bytes())
    except (OSError, ValueError):
        return None
    if record.cache_key != cache_key:
        return None
    files = stage_files(folder)
    if {name: hash_bytes(data) for name, data in files.items()} != record.files:
        return None
    return record, files

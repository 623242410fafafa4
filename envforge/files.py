"""Folders and files written atomically: a reader sees the old content or the new, never a partial one."""

from __future__ import annotations

import ctypes
import errno
import json
import os
import re
import shutil
import sys
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

AT_FDCWD = -100
RENAME_EXCHANGE = 2
"""From <fcntl.h> and <linux/fs.h>: paths relative to the working folder; swap the two names."""
SYNC_THREADS = 8
"""Files written and synced at once by `write_dir_atomic`: enough for their fsyncs to share journal commits."""
LEFTOVER = re.compile(r"\.(?P<kind>tmp|old)-(?P<name>.+)-[0-9a-f]{8}")
"""What the writers below name their temporary files and folders, and the old folder they retire."""


def dump_json(value: Any) -> bytes:
    """Stable, readable JSON bytes (sorted keys, two-space indent, trailing newline)."""
    return (json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n").encode()


def write_dir_atomic(target: Path, files: dict[str, bytes]) -> None:
    """Replace `target` with a folder holding exactly `files`; readers never see a partial folder."""
    target.parent.mkdir(parents=True, exist_ok=True)
    temporary = target.parent / f".tmp-{target.name}-{uuid.uuid4().hex[:8]}"
    temporary.mkdir()
    try:
        paths = {temporary / name: data for name, data in sorted(files.items())}
        for path in paths:
            path.parent.mkdir(parents=True, exist_ok=True)
        # Each file reaches the disk before the swap. One fsync at a time waits for a journal commit per file (a few
        # ms each: about 1 s for a package's 190 files); fsyncs in flight together share commits (about 40 ms).
        with ThreadPoolExecutor(SYNC_THREADS) as pool:
            list(pool.map(_write_synced, paths, paths.values()))
        if target.exists():
            if exchange(temporary, target):
                shutil.rmtree(temporary, ignore_errors=True)  # it now holds the old folder
                return
            # No atomic exchange here: a reader may find the target missing between the two renames, and a
            # run killed there leaves the old folder as `.old-*`, which `clean_leftovers` puts back.
            retired = target.parent / f".old-{target.name}-{uuid.uuid4().hex[:8]}"
            target.rename(retired)
            temporary.rename(target)
            shutil.rmtree(retired, ignore_errors=True)
        else:
            temporary.rename(target)
    except BaseException:
        shutil.rmtree(temporary, ignore_errors=True)
        raise


def _write_synced(path: Path, data: bytes) -> None:
    with path.open("wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def exchange(first: Path, second: Path) -> bool:
    """Swap two paths in one step (Linux `renameat2` with `RENAME_EXCHANGE`); False where that is not available
    (another system, an old C library, or a file system without it), so the caller falls back."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    renameat2 = getattr(libc, "renameat2", None)
    if renameat2 is None:
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    result = renameat2(AT_FDCWD, os.fsencode(first), AT_FDCWD, os.fsencode(second), RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(second))


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


def clean_leftovers(folder: Path, name: str | None = None) -> None:
    """Remove temporary folders and files that a killed run left behind; put back an old folder a run killed
    mid-swap left retired with no new one in its place.

    With `name`, only the leftovers of writing `folder/name`: several processes write into one folder at a time
    (a batch's workers publish their packages side by side), and one must never take another's temporary folder
    for a leftover while it is being filled.
    """
    if not folder.is_dir():
        return
    for entry in sorted(folder.iterdir()):
        leftover = LEFTOVER.fullmatch(entry.name)
        if leftover is None or (name is not None and leftover["name"] != name):
            continue
        original = folder / leftover["name"]
        if entry.is_file():
            if leftover["kind"] == "tmp":
                entry.unlink(missing_ok=True)
        elif leftover["kind"] == "old" and not original.exists():
            entry.rename(original)
        else:
            shutil.rmtree(entry, ignore_errors=True)


def read_files(folder: Path) -> dict[str, bytes]:
    """Every file below `folder`, by its path relative to it, in a stable order."""
    return {str(path.relative_to(folder)): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}

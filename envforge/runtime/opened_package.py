"""A package folder, opened: its manifest read once, and each file handed out checked against its hash.

The manifest (`envforge.ir.manifest`) holds the sha256 of every file. Hashing a file costs a fraction of
reading and parsing it (about 1 ms per MB), so each file is hashed as it is read: a package changed or
damaged after generation fails to load with one line naming the file, instead of a traceback or a server
that starts and then answers 500s. A command opens its package once and hands the opened package down.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from envforge.errors import BlueprintError, PackageError
from envforge.ir.manifest import MANIFEST, EnvManifest, load_manifest, parse_manifest


def broken(path: Path, problem: str, package: Path) -> PackageError:
    """The one-line error for a package file that cannot be used, with both ways out."""
    return PackageError(
        f"{path}: {problem}; the package is broken: re-run `envforge generate` for it "
        f"(`envforge check {package}` lists every problem)"
    )


@dataclass(frozen=True)
class OpenedPackage:
    """A package folder whose files are read through their manifest hashes (or unchecked, for `envforge check`)."""

    path: Path
    hashes: Mapping[str, str] | None
    """File name -> sha256 from the manifest; None reads files unchecked."""
    manifest_data: bytes | None = field(default=None, repr=False)
    """The manifest's bytes and parsed value as read at open; None when unchecked (then read when asked for)."""
    manifest_value: Any = field(default=None, repr=False)

    def exists(self, name: str) -> bool:
        return (self.path / name).is_file()

    def names(self, folder: str) -> list[str]:
        """The files under `folder/`: those the manifest lists, or, unchecked, those on disk."""
        if self.hashes is not None:
            return sorted(name for name in self.hashes if name.startswith(f"{folder}/"))
        found = (self.path / folder).rglob("*")
        return sorted(path.relative_to(self.path).as_posix() for path in found if path.is_file())

    def read(self, name: str) -> bytes:
        """The bytes of `name`, or a one-line PackageError when it is missing or differs from its hash."""
        if name == MANIFEST and self.manifest_data is not None:
            return self.manifest_data
        path = self.path / name
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise broken(path, "missing", self.path) from None
        except OSError as exc:
            raise broken(path, f"cannot be read ({exc.strerror})", self.path) from None
        if self.hashes is not None:
            expected = self.hashes.get(name)
            if expected is None:
                raise broken(path, f"not listed in {MANIFEST}", self.path)
            if hashlib.sha256(data).hexdigest() != expected:
                raise broken(path, f"content differs from the hash in {MANIFEST} (changed or damaged)", self.path)
        return data

    def read_text(self, name: str) -> str:
        data = self.read(name)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise broken(self.path / name, f"not UTF-8 text (byte {exc.start})", self.path) from None

    @cached_property
    def manifest(self) -> EnvManifest:
        """The whole manifest, validated (opening needs only its hashes); unchecked, its errors are raised as they
        come, for `envforge check` to report."""
        if self.manifest_data is None:
            return load_manifest(self.read(MANIFEST))
        return EnvManifest.model_validate(self.manifest_value)


def open_package(path: Path, *, verify: bool = True) -> OpenedPackage:
    """Open a package folder, its manifest read once; a missing or broken manifest is one PackageError line.

    `verify=False` reads files without their manifest hashes: only for `envforge check`, which reports
    hash mismatches itself and then exercises the package as it is."""
    if not path.is_dir():
        raise PackageError(f"{path}: not an environment package directory; run `envforge generate` first")
    if not verify:
        return OpenedPackage(path, None)
    data, value = _read_manifest(path)
    files = value.get("files") if isinstance(value, dict) else None
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise broken(path / MANIFEST, "has no `files:` mapping of file names to sha256 hashes", path)
    return OpenedPackage(path, files, data, value)


def _read_manifest(root: Path) -> tuple[bytes, Any]:
    path = root / MANIFEST
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except FileNotFoundError:
        if not any(root.glob("*.jsonl")) and not (root / "state.sqlite").exists():
            # Not a damaged package but none at all: the user pointed at the wrong folder.
            raise PackageError(
                f"{root}: holds no environment package (no {MANIFEST}); run `envforge generate` to make one, "
                f"or pass the folder that holds {MANIFEST}"
            ) from None
        raise broken(path, "missing", root) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise broken(path, f"cannot be read ({exc})", root) from None
    try:
        return data, parse_manifest(text, str(path))
    except BlueprintError as exc:
        raise broken(path, exc.detail, root) from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise broken(path, f"not valid YAML ({first})", root) from None


def first_error(exc: ValidationError) -> str:
    """The first of a pydantic error's problems, on one line: where in the value, and what."""
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])

"""The files of an environment package as the runtime reads them: each checked against the manifest's hash.

The manifest (`envforge.yaml`) holds the sha256 of every file. Hashing a file costs a fraction of
reading and parsing it (about 1 ms per MB), so each file is hashed as it is read: a package changed or
damaged after generation fails to load with one line naming the file, instead of a traceback or a server
that starts and then answers 500s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from envforge.errors import BlueprintError, PackageError
from envforge.ir.manifest import MANIFEST, parse_manifest


def broken(path: Path, problem: str, package: Path) -> PackageError:
    """The one-line error for a package file that cannot be used, with both ways out."""
    return PackageError(
        f"{path}: {problem}; the package is broken: re-run `envforge generate` for it "
        f"(`envforge check {package}` lists every problem)"
    )


@dataclass(frozen=True)
class PackageFiles:
    """A package folder whose files are read through their manifest hashes (or unchecked, for `envforge check`)."""

    root: Path
    hashes: Mapping[str, str] | None
    """File name -> sha256 from the manifest; None reads files unchecked."""

    @classmethod
    def open(cls, root: Path, *, verify: bool = True) -> PackageFiles:
        if not root.is_dir():
            raise PackageError(f"{root}: not an environment package directory; run `envforge generate` first")
        if not verify:
            return cls(root, None)
        return cls(root, _manifest_hashes(root))

    def exists(self, name: str) -> bool:
        return (self.root / name).is_file()

    def read(self, name: str) -> bytes:
        """The bytes of `name`, or a one-line PackageError when it is missing or differs from its hash."""
        path = self.root / name
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise broken(path, "missing", self.root) from None
        except OSError as exc:
            raise broken(path, f"cannot be read ({exc.strerror})", self.root) from None
        if self.hashes is not None:
            expected = self.hashes.get(name)
            if expected is None:
                raise broken(path, f"not listed in {MANIFEST}", self.root)
            if hashlib.sha256(data).hexdigest() != expected:
                raise broken(path, f"content differs from the hash in {MANIFEST} (changed or damaged)", self.root)
        return data

    def read_text(self, name: str) -> str:
        data = self.read(name)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise broken(self.root / name, f"not UTF-8 text (byte {exc.start})", self.root) from None


def _manifest_hashes(root: Path) -> dict[str, str]:
    path = root / MANIFEST
    try:
        text = path.read_bytes().decode("utf-8")
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
        value = parse_manifest(text, str(path))
    except BlueprintError as exc:
        raise broken(path, exc.detail, root) from None
    except yaml.YAMLError as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise broken(path, f"not valid YAML ({first})", root) from None
    files = value.get("files") if isinstance(value, dict) else None
    if not isinstance(files, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in files.items()):
        raise broken(path, "has no `files:` mapping of file names to sha256 hashes", root)
    return files


def first_error(exc: ValidationError) -> str:
    """The first of a pydantic error's problems, on one line: where in the value, and what."""
    error = exc.errors(include_url=False)[0]
    where = ".".join(str(part) for part in error["loc"])
    return f"{where}: {error['msg']}" if where else str(error["msg"])

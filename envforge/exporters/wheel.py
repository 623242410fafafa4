"""Writing a pure-Python wheel (PEP 427) byte for byte the same on every run.

A build backend would need an isolated build environment and stamps build times into the archive;
an exported wheel holds only files we already have in memory, so writing the zip directly is both
simpler and reproducible: sorted entries, a fixed timestamp, fixed permissions.
"""

from __future__ import annotations

import base64
import hashlib
import io
import re
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path

ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
CONTENT_LABEL_DIGITS = 12
"""Hex digits of the content hash in a wheel's version: 48 bits, no collision between exports in practice."""
_NORMALIZE = re.compile(r"[-_.]+")


@dataclass(frozen=True)
class WheelSpec:
    """What goes into a wheel's metadata."""

    name: str
    """Distribution name, e.g. `envforge-env-retail`."""
    version: str
    """The full version, e.g. `0.1.0+h1a2b3c4d5e6f` (see `with_content_version`)."""
    summary: str
    requires: list[str] = field(default_factory=list)
    extras: dict[str, list[str]] = field(default_factory=dict)
    requires_python: str = ">=3.11"
    console_scripts: dict[str, str] = field(default_factory=dict)

    @property
    def file_stem(self) -> str:
        return f"{_NORMALIZE.sub('_', self.name).lower()}-{self.version}"

    @property
    def filename(self) -> str:
        return f"{self.file_stem}-py3-none-any.whl"


def _metadata(spec: WheelSpec) -> str:
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {spec.name}",
        f"Version: {spec.version}",
        f"Summary: {spec.summary}",
        f"Requires-Python: {spec.requires_python}",
    ]
    lines += [f"Requires-Dist: {requirement}" for requirement in spec.requires]
    for extra, requirements in sorted(spec.extras.items()):
        lines.append(f"Provides-Extra: {extra}")
        lines += [f'Requires-Dist: {requirement}; extra == "{extra}"' for requirement in requirements]
    return "\n".join(lines) + "\n"


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"sha256={digest}"


def _dist_info(spec: WheelSpec) -> dict[str, bytes]:
    """The dist-info files but RECORD, by archive path."""
    dist_info = f"{spec.file_stem}.dist-info"
    contents = {
        f"{dist_info}/METADATA": _metadata(spec).encode(),
        f"{dist_info}/WHEEL": b"Wheel-Version: 1.0\nGenerator: envforge\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    if spec.console_scripts:
        scripts = "".join(f"{name} = {target}\n" for name, target in sorted(spec.console_scripts.items()))
        contents[f"{dist_info}/entry_points.txt"] = f"[console_scripts]\n{scripts}".encode()
    return contents


def with_content_version(spec: WheelSpec, files: dict[str, bytes]) -> WheelSpec:
    """`spec` versioned by what its wheel holds: `0.1.0+h<12 hex>`, a PEP 440 local label hashing `files` and the
    metadata (dependencies included). A changed package or runtime gets a new version, so pip installs the new
    wheel over the old one instead of finding the requirement already satisfied; the same content gets the same
    version, so exports stay byte-reproducible. The `h` keeps the label a string: an all-digit hash would be read
    as a number and lose its leading zeros."""
    digest = hashlib.sha256()
    for name, data in sorted({**files, **_dist_info(spec)}.items()):
        digest.update(f"{name}\0{len(data)}\0".encode())
        digest.update(data)
    return replace(spec, version=f"{spec.version}+h{digest.hexdigest()[:CONTENT_LABEL_DIGITS]}")


def build_wheel(spec: WheelSpec, files: dict[str, bytes]) -> bytes:
    """The wheel archive holding `files` (archive path -> content) and its dist-info."""
    dist_info = f"{spec.file_stem}.dist-info"
    contents = {**files, **_dist_info(spec)}
    record_name = f"{dist_info}/RECORD"
    record = "".join(f"{name},{_record_hash(data)},{len(data)}\n" for name, data in sorted(contents.items()))
    contents[record_name] = (record + f"{record_name},,\n").encode()

    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        # dist-info last, as installers expect; everything else in sorted order.
        for name in sorted(contents, key=lambda entry: (entry.startswith(dist_info), entry)):
            info = zipfile.ZipInfo(name, date_time=ZIP_EPOCH)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, contents[name], compresslevel=9)
    return buffer.getvalue()


def files_under(root: Path, prefix: str, suffixes: tuple[str, ...] = (".py", ".typed")) -> dict[str, bytes]:
    """Source files below `root` as archive entries under `prefix` (no caches, sorted)."""
    return {
        f"{prefix}/{path.relative_to(root).as_posix()}": path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file() and path.suffix in suffixes and "__pycache__" not in path.parts
    }

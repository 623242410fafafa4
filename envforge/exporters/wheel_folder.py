"""The `wheels/` folder an export writes into: earlier builds that this export's wheels replace.

Wheels are versioned by content, and content hashes have no order: with two builds of one environment side by
side, `pip install --find-links` could pick either. So an export leaves one build per environment it wrote, and
of the runtime builds only those an environment wheel in the folder still pins.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

from envforge.exporters.wheel import WheelSpec

WHEEL_SUFFIX = "-py3-none-any.whl"


def _parts(path: Path) -> tuple[str, str]:
    """(normalized distribution name, version) of a wheel file `name-version-py3-none-any.whl`."""
    name, _, version = path.name.removesuffix(WHEEL_SUFFIX).partition("-")
    return name, version


def _pinned(path: Path, runtime: str) -> set[str]:
    """Versions of `runtime` (a distribution name) that the wheel at `path` requires exactly; none if unreadable."""
    prefix = f"Requires-Dist: {runtime}=="
    try:
        with zipfile.ZipFile(path) as archive:
            metadata = archive.read(f"{path.name.removesuffix(WHEEL_SUFFIX)}.dist-info/METADATA").decode()
    except (OSError, KeyError, zipfile.BadZipFile, UnicodeDecodeError):
        return set()
    return {line.removeprefix(prefix) for line in metadata.splitlines() if line.startswith(prefix)}


def superseded_wheels(folder: Path, runtime: WheelSpec, environments: list[WheelSpec]) -> list[Path]:
    """Wheels in `folder` that the just written `runtime` and `environments` wheels replace: other builds of those
    environments, then runtime builds that no environment wheel left in the folder pins."""
    written = {spec.filename for spec in (runtime, *environments)}
    rebuilt = {_parts(Path(spec.filename))[0] for spec in environments}
    runtime_name = _parts(Path(runtime.filename))[0]
    others = [path for path in sorted(folder.glob(f"*{WHEEL_SUFFIX}")) if path.name not in written]
    stale = [path for path in others if _parts(path)[0] in rebuilt]
    kept = [path for path in folder.glob(f"*{WHEEL_SUFFIX}") if path not in stale and _parts(path)[0] != runtime_name]
    pinned = {version for path in kept for version in _pinned(path, runtime.name)}
    return stale + [path for path in others if _parts(path)[0] == runtime_name and _parts(path)[1] not in pinned]

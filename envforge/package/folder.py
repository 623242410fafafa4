"""Assembling a package's files, and changing a finished package in place: always re-rendered, re-hashed, swapped."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from envforge.files import dump_json, read_files, write_dir_atomic
from envforge.hashing import hash_bytes
from envforge.ir.manifest import MANIFEST, EnvManifest, dump_manifest, load_manifest
from envforge.ir.synthesis import SynthesisReport
from envforge.ir.verification import ValidationReport
from envforge.package.report import render_report

REPORT_JSON = "report.json"
REPORT_MD = "report.md"
SYNTHESIS = "synthesis.json"
"""What the LLM wrote and checked, in packages made by `generate --from-description`."""


def assemble(
    files: Mapping[str, bytes], manifest: EnvManifest, report: ValidationReport, synthesis: SynthesisReport | None
) -> dict[str, bytes]:
    """Every file of a package: `files`, the report files, and the manifest hashing all of them."""
    complete = {name: data for name, data in files.items() if name != MANIFEST}
    complete[REPORT_JSON] = dump_json(report.model_dump(mode="json"))
    if synthesis is not None:
        complete[SYNTHESIS] = dump_json(synthesis.model_dump(mode="json"))
    complete[REPORT_MD] = render_report(report, synthesis).encode()
    hashes = {name: hash_bytes(data) for name, data in sorted(complete.items())}
    complete[MANIFEST] = dump_manifest(manifest.model_copy(update={"files": hashes}))
    return complete


def publish(target: Path, files: dict[str, bytes]) -> None:
    """Swap the package folder in whole, unless it already holds exactly these files."""
    if not (target.is_dir() and read_files(target) == files):
        write_dir_atomic(target, files)


def update_package(
    package: Path, report_update: Mapping[str, Any], files: Mapping[str, bytes | None] | None = None
) -> ValidationReport:
    """Set report fields, add, replace or (None) remove other files, and swap the folder in re-hashed."""
    current = {name: data for name, data in read_files(package).items() if "__pycache__" not in name}
    report = ValidationReport.model_validate_json(current[REPORT_JSON]).model_copy(update=dict(report_update))
    synthesis = SynthesisReport.model_validate_json(current[SYNTHESIS]) if SYNTHESIS in current else None
    for name, data in (files or {}).items():
        if data is None:
            current.pop(name, None)
        else:
            current[name] = data
    write_dir_atomic(package, assemble(current, load_manifest(current[MANIFEST]), report, synthesis))
    return report

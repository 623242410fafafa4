"""Changing a finished package in place: new report sections and files, re-hashed in its manifest.

Commands that learn something about a package after it was generated (`validate`, `verify-ui`) write it
here; the folder is swapped atomically, so `envforge check` still finds every hash right.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from envforge.hashing import hash_bytes
from envforge.ir.verification import ValidationReport
from envforge.pipeline.artifacts import EnvManifest, dump_json, dump_manifest
from envforge.pipeline.store import read_files, write_dir_atomic
from envforge.stages.package.report import render_summary


def rewrite_report(
    package: Path, update: Mapping[str, Any], files: Mapping[str, bytes | None] | None = None
) -> ValidationReport:
    """Set report fields (`update`), add, replace or (None) remove other files, and swap the folder."""
    current = {name: data for name, data in read_files(package).items() if "__pycache__" not in name}
    report = ValidationReport.model_validate_json(current["report.json"]).model_copy(update=dict(update))
    changed: dict[str, bytes | None] = {
        **(files or {}),
        "report.json": dump_json(report.model_dump(mode="json")),
        "report.md": render_summary(report).encode(),
    }
    manifest = EnvManifest.model_validate(yaml.safe_load(current["envforge.yaml"]))
    hashes = dict(manifest.files)
    for name, data in changed.items():
        if data is None:
            current.pop(name, None)
            hashes.pop(name, None)
        else:
            current[name] = data
            hashes[name] = hash_bytes(data)
    manifest = manifest.model_copy(update={"files": dict(sorted(hashes.items()))})
    current["envforge.yaml"] = dump_manifest(manifest)
    write_dir_atomic(package, current)
    return report

"""Manifest and file integrity: every file the manifest lists exists and has the recorded hash."""

from __future__ import annotations

from dataclasses import dataclass

import yaml
from pydantic import ValidationError

from envforge.errors import BlueprintError
from envforge.hashing import hash_bytes
from envforge.ir.manifest import MANIFEST
from envforge.runtime.opened_package import OpenedPackage

REQUIRED_FILES = (
    MANIFEST,
    "blueprint.yaml",
    "ontology.json",
    "toolgraph.json",
    "toolgraph.svg",
    "tools.json",
    "state.sqlite",
    "schema.sql",
    "policy.md",
    "tasks.jsonl",
    "report.json",
    "report.md",
    "apps/app.json",
    "apps/ui_tasks.jsonl",
)


@dataclass(frozen=True)
class IntegrityProblem:
    file: str
    problem: str

    def __str__(self) -> str:
        return f"{self.file}: {self.problem}"


def check_package_integrity(package: OpenedPackage) -> list[IntegrityProblem]:
    """Problems with the files of a package opened unchecked; an empty list means it is intact."""
    problems = [IntegrityProblem(name, "missing") for name in REQUIRED_FILES if not package.exists(name)]
    if problems and problems[0].file == MANIFEST:
        return problems
    try:
        manifest = package.manifest
    except (yaml.YAMLError, ValidationError, UnicodeDecodeError, BlueprintError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [*problems, IntegrityProblem(MANIFEST, f"not a valid manifest ({first})")]
    for name, expected in sorted(manifest.files.items()):
        if not package.exists(name):
            problems.append(IntegrityProblem(name, "listed in the manifest but missing"))
        elif hash_bytes(package.read(name)) != expected:
            problems.append(IntegrityProblem(name, "content differs from the manifest's hash"))
    listed = set(manifest.files) | {MANIFEST}
    for path in sorted(package.path.rglob("*")):
        name = str(path.relative_to(package.path))
        if path.is_file() and name not in listed:
            problems.append(IntegrityProblem(name, "not listed in the manifest"))
    return problems

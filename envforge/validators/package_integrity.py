"""Manifest and file integrity: every file the manifest lists exists and has the recorded hash."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from envforge.errors import BlueprintError
from envforge.hashing import hash_bytes
from envforge.ir.manifest import load_manifest

REQUIRED_FILES = (
    "envforge.yaml",
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


def check_package_integrity(package: Path) -> list[IntegrityProblem]:
    """Problems with the package's files; an empty list means it is intact."""
    problems = [IntegrityProblem(name, "missing") for name in REQUIRED_FILES if not (package / name).is_file()]
    if problems and problems[0].file == "envforge.yaml":
        return problems
    try:
        manifest = load_manifest((package / "envforge.yaml").read_bytes())
    except (yaml.YAMLError, ValidationError, UnicodeDecodeError, BlueprintError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return [*problems, IntegrityProblem("envforge.yaml", f"not a valid manifest ({first})")]
    for name, expected in sorted(manifest.files.items()):
        path = package / name
        if not path.is_file():
            problems.append(IntegrityProblem(name, "listed in the manifest but missing"))
        elif hash_bytes(path.read_bytes()) != expected:
            problems.append(IntegrityProblem(name, "content differs from the manifest's hash"))
    listed = set(manifest.files) | {"envforge.yaml"}
    for path in sorted(package.rglob("*")):
        name = str(path.relative_to(package))
        if path.is_file() and name not in listed:
            problems.append(IntegrityProblem(name, "not listed in the manifest"))
    return problems

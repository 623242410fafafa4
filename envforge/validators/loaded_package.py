"""A package as the checks see it: its manifest, loaded environment, tasks, and the tasks to exercise."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from envforge.errors import EnvforgeError, PackageError
from envforge.ir.manifest import MANIFEST, EnvManifest, load_manifest
from envforge.ir.tasks import TaskSpec
from envforge.ir.verification import ValidationReport
from envforge.runtime.environment import Environment, check_template, load_environment, zeroed_pages
from envforge.runtime.package_files import PackageFiles, broken
from envforge.runtime.tasks import check_verifiers_present, load_tasks


@dataclass(frozen=True)
class LoadedPackage:
    path: Path
    manifest: EnvManifest
    env: Environment
    tasks: list[TaskSpec]
    """Every task of tasks.jsonl, in file order."""
    sampled: list[TaskSpec]
    """The tasks the gates and replays exercise: all of them, or an even spread when sampling."""
    report: ValidationReport
    """The shipped report.json."""
    files: PackageFiles
    """The package's files, read as they are: hash mismatches are the integrity check's to report."""


def require_package(path: Path) -> None:
    """Raise PackageError unless `path` is a package folder (one with an envforge.yaml)."""
    if (path / MANIFEST).is_file():
        return
    if not path.is_dir():
        what = "not a folder" if path.exists() else "no such folder"
        raise PackageError(f"{path}: {what}; point at a package made by `envforge generate`")
    inside = sorted(child for child in path.iterdir() if (child / MANIFEST).is_file())
    hint = f"; did you mean {inside[0]}?" if inside else "; point at a package made by `envforge generate`"
    raise PackageError(f"{path}: not an environment package (no {MANIFEST}){hint}")


def read_env_id(path: Path) -> str:
    """The manifest's env id, or the folder's name when the manifest cannot be read."""
    try:
        return load_manifest((path / MANIFEST).read_bytes()).env_id
    except (OSError, UnicodeDecodeError, EnvforgeError, yaml.YAMLError, ValidationError):
        return path.name


def sample_tasks(tasks: list[TaskSpec], count: int | None) -> list[TaskSpec]:
    """`count` tasks spread evenly over the file (so every kind tends to be present); all when None."""
    if count is None or count >= len(tasks):
        return list(tasks)
    return [tasks[index * len(tasks) // count] for index in range(count)]


def load_package(path: Path, *, sample: int | None) -> LoadedPackage:
    """Everything the behaviour checks need; raises (with the file at fault) when the package cannot load."""
    files = PackageFiles.open(path, verify=False)
    manifest = load_manifest(files.read(MANIFEST))
    _check_database(path, files.read("state.sqlite"))
    env = load_environment(path, files=files)
    tasks = list(load_tasks(path, files).values())
    check_verifiers_present(files, (task.id for task in tasks))
    report = ValidationReport.model_validate_json(files.read("report.json"))
    return LoadedPackage(path, manifest, env, tasks, sample_tasks(tasks, sample), report, files)


def _check_database(path: Path, template: bytes) -> None:
    # A page damaged inside the file still opens; it would surface later as internal errors of random tool calls.
    check_template(template, path)
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(template)
        verdict = [row[0] for row in connection.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        verdict = [str(exc)]
    finally:
        connection.close()
    if verdict != ["ok"]:
        where = zeroed_pages(template)
        raise broken(path / "state.sqlite", f"damaged SQLite database{where} ({'; '.join(verdict[:3])})", path)

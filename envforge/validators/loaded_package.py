"""A package as the checks see it: opened once, its files read as they are, loaded, and the tasks to exercise."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from envforge.errors import EnvforgeError, PackageError
from envforge.ir.manifest import MANIFEST, EnvManifest
from envforge.ir.tasks import TaskSpec
from envforge.ir.verification import ValidationReport
from envforge.runtime.environment import Environment, check_template, zeroed_pages
from envforge.runtime.episode import EnvPackage
from envforge.runtime.episode import load_package as load_env_package
from envforge.runtime.opened_package import OpenedPackage, broken, open_package


@dataclass(frozen=True)
class LoadedPackage:
    env_package: EnvPackage
    """The environment, tasks and verifiers, read as they are: hash mismatches are the integrity check's to report."""
    manifest: EnvManifest
    tasks: list[TaskSpec]
    """Every task of tasks.jsonl, in file order."""
    sampled: list[TaskSpec]
    """The tasks the gates and replays exercise: all of them, or an even spread when sampling."""
    report: ValidationReport
    """The shipped report.json."""

    @property
    def path(self) -> Path:
        return self.env_package.path

    @property
    def env(self) -> Environment:
        return self.env_package.env

    @property
    def files(self) -> OpenedPackage:
        return self.env_package.files


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


def open_for_check(path: Path) -> OpenedPackage:
    """The package folder opened once for `envforge check`: its files read as they are, whatever their hashes."""
    require_package(path)
    return open_package(path, verify=False)


def read_env_id(package: OpenedPackage) -> str:
    """The manifest's env id, or the folder's name when the manifest cannot be read."""
    try:
        return package.manifest.env_id
    except (OSError, UnicodeDecodeError, EnvforgeError, yaml.YAMLError, ValidationError):
        return package.path.name


def sample_tasks(tasks: list[TaskSpec], count: int | None) -> list[TaskSpec]:
    """`count` tasks spread evenly over the file (so every kind tends to be present); all when None."""
    if count is None or count >= len(tasks):
        return list(tasks)
    return [tasks[index * len(tasks) // count] for index in range(count)]


def load_package(package: OpenedPackage, *, sample: int | None) -> LoadedPackage:
    """Everything the behaviour checks need; raises (with the file at fault) when the package cannot load."""
    manifest = package.manifest
    _check_database(package.path, package.read("state.sqlite"))
    env_package = load_env_package(package)
    tasks = list(env_package.tasks.values())
    report = ValidationReport.model_validate_json(package.read("report.json"))
    return LoadedPackage(env_package, manifest, tasks, sample_tasks(tasks, sample), report)


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

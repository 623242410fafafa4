"""A package as the checks see it: its manifest, loaded environment, tasks, and the tasks to exercise."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

import yaml
from pydantic import ValidationError

from envforge.errors import PackageError
from envforge.ir.tasks import TaskSpec
from envforge.ir.verification import ValidationReport
from envforge.package import EnvManifest
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.tasks import load_tasks

MANIFEST = "envforge.yaml"


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
        return EnvManifest.model_validate(yaml.safe_load((path / MANIFEST).read_text(encoding="utf-8"))).env_id
    except (OSError, yaml.YAMLError, ValidationError):
        return path.name


def sample_tasks(tasks: list[TaskSpec], count: int | None) -> list[TaskSpec]:
    """`count` tasks spread evenly over the file (so every kind tends to be present); all when None."""
    if count is None or count >= len(tasks):
        return list(tasks)
    return [tasks[index * len(tasks) // count] for index in range(count)]


def load_package(path: Path, *, sample: int | None) -> LoadedPackage:
    """Everything the behaviour checks need; raises (with the file at fault) when the package cannot load."""
    manifest = EnvManifest.model_validate(yaml.safe_load((path / MANIFEST).read_text(encoding="utf-8")))
    env = load_environment(path)
    _check_database(path, env.template)
    tasks = list(load_tasks(path).values())
    report = ValidationReport.model_validate_json((path / "report.json").read_bytes())
    return LoadedPackage(path, manifest, env, tasks, sample_tasks(tasks, sample), report)


def _check_database(path: Path, template: bytes) -> None:
    # A page damaged inside the file still opens; it would surface later as internal errors of random tool calls.
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(template)
        verdict = [row[0] for row in connection.execute("PRAGMA integrity_check")]
    except sqlite3.DatabaseError as exc:
        verdict = [str(exc)]
    finally:
        connection.close()
    if verdict != ["ok"]:
        raise PackageError(f"{path / 'state.sqlite'}: damaged SQLite database ({'; '.join(verdict[:3])})")

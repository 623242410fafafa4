"""What a path given to `envforge view` is: a package, a rollout run (one trajectories file, or a folder of them),
or a suite made by `envforge batch`."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from envforge.errors import UserInputError
from envforge.ir.manifest import MANIFEST
from envforge.suite.report import SUITE_JSON

ViewKind = Literal["package", "run", "runs", "suite"]


def trajectory_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.glob("*.jsonl") if path.is_file())


def detect_kind(path: Path) -> ViewKind:
    """The kind of `path`, or a one-line error naming what it lacks."""
    if path.is_file() and path.suffix == ".jsonl":
        return "run"
    if path.is_dir():
        if (path / MANIFEST).is_file():
            return "package"
        if (path / SUITE_JSON).is_file():
            return "suite"
        if trajectory_files(path):
            return "runs"
    what = "no such file or folder" if not path.exists() else "not a package, a suite or a rollout run"
    raise UserInputError(
        f"{path}: {what}; give a package folder (with {MANIFEST}), a suite folder (with {SUITE_JSON}) "
        "from `envforge batch`, or a trajectories .jsonl file (or a folder of them) from `envforge rollout`"
    )

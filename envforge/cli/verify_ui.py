"""`envforge verify-ui`: replay a package's golden UI paths in headless Chromium and record what held."""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import cast

from envforge.errors import UserInputError
from envforge.ir.uitasks import AppKind
from envforge.ir.verification import UIReplaySummary
from envforge.runtime.apps.server import APPS
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.validators.loaded_package import require_package
from envforge.validators.ui_replay import ReplayOutcome, record_replay, replay_ui_tasks, spread


def parse_apps(value: str) -> tuple[AppKind, ...]:
    chosen = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [part for part in chosen if part not in APPS]
    if not chosen or unknown:
        raise UserInputError(f"--app: '{value}' is not web, phone or web,phone")
    return cast(tuple[AppKind, ...], chosen)


def planned(package: Path, apps: tuple[AppKind, ...], sample: int | None) -> int:
    """How many replays the run will do; a one-line error first when `package` is not a package."""
    require_package(package)
    tasks = load_ui_tasks(open_package(package))
    return sum(len(spread([task for task in tasks if task.app == app], sample)) for app in apps)


def verify_ui(
    package_path: Path,
    apps: tuple[AppKind, ...],
    *,
    sample: int | None,
    screenshots: bool,
    progress: Callable[[ReplayOutcome], None] | None = None,
) -> UIReplaySummary:
    package = load_package(open_package(package_path))
    tasks = load_ui_tasks(package.files)
    with tempfile.TemporaryDirectory(prefix="envforge-shots-") as folder:
        shots = Path(folder) if screenshots else None
        outcomes, chromium = replay_ui_tasks(package, tasks, apps, sample=sample, screenshots=shots, progress=progress)
        report = record_replay(package.files, tasks, outcomes, chromium, shots)
    assert report.ui_replay is not None
    return report.ui_replay

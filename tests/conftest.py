"""Shared fixtures: generated packages of the shipped blueprints, built once per test session."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.stages.generate import run_pipeline

REPO = Path(__file__).resolve().parent.parent
SINGLE_BLUEPRINTS = sorted((REPO / "blueprints").glob("*.yaml"))
FUSED_BLUEPRINTS = sorted((REPO / "blueprints" / "fused").glob("*.yaml"))
BLUEPRINTS = SINGLE_BLUEPRINTS + FUSED_BLUEPRINTS
"""Every shipped blueprint, the fused ones too: each test over every domain covers them."""
TEST_ROWS = 400
TEST_TASKS = 30


def envforge_cli(*args: str, cwd: Path = REPO, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run the real CLI in a fresh interpreter, as a user would."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    return subprocess.run(
        [sys.executable, "-m", "envforge.cli.app", *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
    )


@pytest.fixture(scope="session")
def packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every shipped blueprint generated with a small row count: domain -> package folder."""
    out = tmp_path_factory.mktemp("generated")
    result = {}
    for blueprint in BLUEPRINTS:
        run = run_pipeline(blueprint, out, GenerateConfig(rows=TEST_ROWS, tasks=TEST_TASKS))
        result[run.domain] = run.package
    return result


@pytest.fixture(scope="session")
def default_packages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Every shipped blueprint generated with the defaults (150 tasks, default rows): what a user trains on.
    For slow tests only; built once per session."""
    out = tmp_path_factory.mktemp("generated-defaults")
    return {path.stem: run_pipeline(path, out, GenerateConfig()).package for path in BLUEPRINTS}


@pytest.fixture(scope="session")
def retail_package(packages: dict[str, Path]) -> Path:
    return packages["retail"]


@pytest.fixture(scope="session")
def retail_env(retail_package: Path) -> Environment:
    return load_environment(open_package(retail_package))


@pytest.fixture
def ray_temp_dir() -> Iterator[Path]:
    """A short folder of its own for a Ray started by a test. Ray's sockets live under its temp dir, and a Unix
    socket address holds 107 bytes: pytest's tmp_path (longer still under xdist, `popen-gw0/`) leaves Ray's
    session paths past that."""
    folder = Path(tempfile.mkdtemp(prefix="ray-"))
    yield folder
    shutil.rmtree(folder, ignore_errors=True)

"""Exports of every shipped domain, built once; the environment wheels unpacked onto sys.path."""

from __future__ import annotations

import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from envforge.exporters.run import FORMATS, export
from tests.exporters import verl_venv


@pytest.fixture(scope="session")
def verl_python() -> Path:
    return verl_venv.verl_python()


@pytest.fixture(scope="session")
def exports(packages: dict[str, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("exports")
    export(list(packages.values()), out, list(FORMATS))
    return out


@pytest.fixture(scope="session")
def unpacked_wheels(exports: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The environment wheels as pip would lay them out, importable from this process."""
    site = tmp_path_factory.mktemp("site")
    for wheel in sorted((exports / "wheels").glob("envforge_env_*.whl")):
        with zipfile.ZipFile(wheel) as archive:
            archive.extractall(site)
    sys.path.insert(0, str(site))
    yield site
    sys.path.remove(str(site))

"""Fixtures for rollout tests: the committed showcase package (stable bytes, so recorded requests match)."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from tests.conftest import REPO
from tests.vllm_server import smollm2_server, vllm_python  # noqa: F401  (pytest fixtures)

SHOWCASE = REPO / "generated" / "showcase" / "retail"


@pytest.fixture(scope="session")
def showcase() -> EnvPackage:
    return load_package(open_package(SHOWCASE))


@pytest.fixture
def showcase_copy(tmp_path: Path) -> Path:
    """A private copy of the showcase package, for tests that rewrite its report."""
    import shutil

    target = tmp_path / "retail"
    shutil.copytree(SHOWCASE, target)
    return target

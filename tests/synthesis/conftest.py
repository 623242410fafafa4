"""Fixtures for synthesis tests: the package that the recorded real SmolLM2 responses produce, built once."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import envforge_cli
from tests.synthesis.scenario import DOMAIN, RECORDED, generate_args
from tests.vllm_server import smollm2_server, vllm_python  # noqa: F401  (pytest fixtures)


@pytest.fixture(scope="session")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    """`generate --from-description --offline` on the recorded responses: the package and the printed JSON."""
    work = tmp_path_factory.mktemp("replayed")
    result = envforge_cli(*generate_args(work / "out", RECORDED), cwd=work, timeout=300)
    assert result.returncode == 0, result.stderr
    return work / "out" / DOMAIN, json.loads(result.stdout)

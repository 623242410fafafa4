"""The README's noise and curriculum examples, run as written against a generated retail package."""

from __future__ import annotations

import os
import runpy
from pathlib import Path

import pytest

from tests.conftest import REPO
from tests.guide_snippets import guide_snippet

README = REPO / "README.md"


@pytest.mark.parametrize("name", ["noise-gym", "noise-curriculum"])
def test_the_readme_example_runs(
    name: str, retail_package: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "generated").mkdir()
    (tmp_path / "generated" / "retail").symlink_to(retail_package)
    script = tmp_path / "example.py"
    script.write_text(guide_snippet(name, README, "python"), encoding="utf-8")
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        runpy.run_path(str(script), run_name="__main__")
    finally:
        os.chdir(cwd)
    printed = capsys.readouterr().out
    if name == "noise-gym":
        assert printed.startswith("1.0 [")
    else:
        assert printed.startswith("0.2 {'level': 0.2, 'step': 1,")

"""Where the conformance suite's pytest files are: `envforge/conformance/` in an installed wheel (package data, see
setup.py), the checkout's top-level `validators/` otherwise (a source tree or an editable install)."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
PYTEST_SUITE = _PACKAGE / "conformance" if (_PACKAGE / "conformance").is_dir() else _PACKAGE.parent / "validators"
"""The folder a user hands pytest: `pytest FOLDER --package PATH` runs what `envforge check PATH` runs."""

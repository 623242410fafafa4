"""Where the shipped blueprints are: `envforge/blueprints/` in an installed wheel (package data, see setup.py), the
checkout's top-level `blueprints/` otherwise (a source tree or an editable install), the folder users read."""

from __future__ import annotations

from pathlib import Path

_PACKAGE = Path(__file__).resolve().parents[1]
SHIPPED = _PACKAGE / "blueprints" if (_PACKAGE / "blueprints").is_dir() else _PACKAGE.parent / "blueprints"
"""The shipped blueprints (`retail.yaml`, ...) and `fused/`, the ones a composition or a batch may name."""

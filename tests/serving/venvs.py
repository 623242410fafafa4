"""Bare venvs (no pip, no site packages) for interpreters that lack or fake a package: milliseconds to make."""

from __future__ import annotations

import sys
import venv
from pathlib import Path


def make_venv(folder: Path) -> Path:
    """A bare venv in `folder`; its python."""
    venv.create(folder, with_pip=False, symlinks=True)
    return folder / "bin" / "python"


def site_packages(python: Path) -> Path:
    """Where packages of the venv of `python` go (the same Python version as this one)."""
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    return python.parent.parent / "lib" / version / "site-packages"

"""Finding an installed environment package by its module name, once per process."""

from __future__ import annotations

import importlib
from functools import cache

from envforge.errors import PackageError
from envforge.runtime.episode import EnvPackage


@cache
def installed_package(env_module: str) -> EnvPackage:
    """The package of an installed environment wheel, e.g. `envforge_env_retail`."""
    try:
        module = importlib.import_module(env_module)
    except ImportError:
        raise PackageError(
            f"environment module '{env_module}' is not installed; pip install its wheel from `envforge export --format wheel`"
        ) from None
    package: EnvPackage = module.load()
    return package

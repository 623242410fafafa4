"""Names of an environment's wheel and module, from its domain."""

from __future__ import annotations

import re


def module_name(domain: str) -> str:
    """`retail` -> `envforge_env_retail`."""
    return "envforge_env_" + re.sub(r"\W", "_", domain.lower())


def distribution_name(domain: str) -> str:
    return module_name(domain).replace("_", "-")

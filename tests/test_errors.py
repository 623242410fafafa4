"""`EnvforgeError` is the one error tree: every exception class envforge defines derives from it."""

from __future__ import annotations

import importlib
import inspect
from types import ModuleType

from envforge.errors import EnvforgeError
from tests.conftest import REPO


def _envforge_modules() -> list[ModuleType]:
    """Every envforge module, imported; one that needs a trainer not installed here (verl) is left out."""
    modules = []
    for path in sorted((REPO / "envforge").rglob("*.py")):
        parts = path.relative_to(REPO).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        try:
            modules.append(importlib.import_module(name))
        except ModuleNotFoundError as missing:
            if (missing.name or "").startswith("envforge"):
                raise
    return modules


def _exception_classes() -> dict[str, type[BaseException]]:
    return {
        f"{module.__name__}.{value.__qualname__}": value
        for module in _envforge_modules()
        for value in vars(module).values()
        if inspect.isclass(value) and issubclass(value, BaseException) and value.__module__ == module.__name__
    }


def test_every_exception_class_envforge_defines_derives_from_envforge_error() -> None:
    classes = _exception_classes()
    outside = sorted(name for name, value in classes.items() if not issubclass(value, EnvforgeError))
    assert outside == []
    assert {
        "envforge.errors.UserInputError",
        "envforge.ir.expressions.ExpressionError",
        "envforge.runtime.errors.ToolError",
        "envforge.synthesis.drafts.DraftError",
    } <= set(classes)

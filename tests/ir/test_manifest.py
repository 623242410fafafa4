"""The manifest's layout is defined in one place, `envforge/ir/manifest.py`; every other module asks it."""

from __future__ import annotations

import ast

from tests.conftest import REPO

HOME = REPO / "envforge" / "ir" / "manifest.py"


def _strings_naming_the_manifest(source: str) -> list[int]:
    """Lines of the string literals (f-string parts included) that spell the manifest's file name; docstrings
    and other bare string statements are prose, not a definition, and are left out."""
    tree = ast.parse(source)
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and "envforge.yaml" in node.value
        and id(node) not in prose
    ]


def test_the_manifest_file_name_is_spelled_only_in_its_one_home() -> None:
    spelled = {
        f"{path.relative_to(REPO)}:{line}"
        for path in sorted((REPO / "envforge").rglob("*.py"))
        if path != HOME
        for line in _strings_naming_the_manifest(path.read_text(encoding="utf-8"))
    }

    assert spelled == set()
    assert _strings_naming_the_manifest(HOME.read_text(encoding="utf-8")) != []

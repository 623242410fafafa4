"""The import rules of the layout in `envforge/__init__.py`, checked on the source as written.

Every `import` counts, at module level or inside a function, and under `if TYPE_CHECKING:` too: a rule that
holds only at run time would still let the packages grow into each other.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import networkx as nx

from tests.conftest import REPO

SOURCE = REPO / "envforge"


def _module(path: Path) -> str:
    parts = path.relative_to(REPO).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_statements(path: Path) -> Iterator[tuple[str, list[str]]]:
    """(envforge module, the names taken from it) for each import in `path`, absolute; `import X` takes none."""
    package = _module(path) if path.name == "__init__.py" else _module(path).rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, []) for alias in node.names if alias.name.startswith("envforge"))
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            if base.startswith("envforge"):
                yield base, [alias.name for alias in node.names]


def _imports(path: Path) -> Iterator[str]:
    """The envforge modules `path` imports, absolute."""
    return (module for module, _ in _import_statements(path))


def _edges() -> list[tuple[str, str]]:
    return [(_module(path), imported) for path in sorted(SOURCE.rglob("*.py")) for imported in _imports(path)]


def _package(module: str, depth: int) -> str:
    """`envforge.X` (depth 2) or `envforge.X.Y` (depth 3) for a module inside a package, else the module."""
    parts = module.split(".")
    for size in range(min(depth, len(parts)), 1, -1):
        candidate = SOURCE.parent.joinpath(*parts[:size])
        if candidate.is_dir():
            return ".".join(parts[:size])
    return module


def _cycles(depth: int) -> list[list[str]]:
    graph = nx.DiGraph()
    for source, target in _edges():
        a, b = _package(source, depth), _package(target, depth)
        # A package and its own subpackage are one unit (`cli` registers the commands of `cli.commands`).
        if not (a == b or a.startswith(f"{b}.") or b.startswith(f"{a}.")):
            graph.add_edge(a, b)
    return sorted(sorted(cycle) for cycle in nx.simple_cycles(graph))


def test_no_two_top_level_packages_import_each_other_even_through_others() -> None:
    assert _cycles(depth=2) == []


def test_no_two_subpackages_import_each_other_even_through_others() -> None:
    assert _cycles(depth=3) == []


def test_pipeline_knows_no_stage_and_the_runtime_imports_only_ir() -> None:
    edges = _edges()
    assert [(a, b) for a, b in edges if a.startswith("envforge.pipeline") and b.startswith("envforge.stages")] == []
    leaves = ("envforge.errors", "envforge.hashing", "envforge.text", "envforge.version")
    allowed = ("envforge.ir", "envforge.runtime", *leaves)
    assert [(a, b) for a, b in edges if a.startswith("envforge.runtime") and not b.startswith(allowed)] == []


def _file_edges() -> Iterator[tuple[str, str]]:
    """Module (file) -> module (file) it imports.

    A name taken from a package goes to the file that defines it: to the submodule of that name, or, when the
    package's `__init__.py` only hands the name on (re-exports it), to the file it comes from. Otherwise the
    `__init__.py` itself is imported, as by `import envforge`.
    """
    modules = {_module(path): path for path in SOURCE.rglob("*.py")}
    handed_on = {
        _module(path): {name: source for source, names in _import_statements(path) for name in names}
        for path in SOURCE.rglob("__init__.py")
    }

    def home(module: str, name: str) -> str:
        if f"{module}.{name}" in modules:
            return f"{module}.{name}"
        source = handed_on.get(module, {}).get(name)
        return home(source, name) if source is not None else module

    for module, path in modules.items():
        for imported, names in _import_statements(path):
            for target in {home(imported, name) for name in names} if names else {imported}:
                if target != module:
                    yield module, target


def test_no_two_files_import_each_other_even_through_others() -> None:
    graph = nx.DiGraph(list(_file_edges()))
    circles = [set(component) for component in nx.strongly_connected_components(graph) if len(component) > 1]
    assert circles == []


def test_a_stage_imports_of_another_stage_only_its_artifact() -> None:
    crossing = [
        (a, b)
        for a, b in _edges()
        if a.startswith("envforge.stages.")
        and b.startswith("envforge.stages.")
        and a.split(".")[2] != b.split(".")[2]
        and not b.endswith(".artifact")
        and a not in ("envforge.stages.registry", "envforge.stages.generate")
    ]
    assert crossing == []

"""The `envforge-runtime` wheel holds every envforge module its own modules import.

A runtime module that starts importing a generator-side module (as `runtime.provenance` once did with
`envforge.text`) installs cleanly and then fails on first import in a trainer's venv; only the slow
install tests would notice, so this checks the wheel's contents directly.
"""

from __future__ import annotations

import ast
import io
import zipfile

from envforge.exporters.wheels import runtime_wheel


def _imported(source: bytes, module: str) -> set[str]:
    """Every envforge module a file imports, at any depth (lazy imports inside functions included)."""
    package = module.rsplit(".", 1)[0]
    found: set[str] = set()
    tree = ast.parse(source)
    # `if TYPE_CHECKING:` imports never run: the checker reads them, an installed wheel does not.
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            node.body = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {name for name in found if name.split(".")[0] == "envforge"}


def test_every_envforge_import_in_the_runtime_wheel_resolves_inside_it() -> None:
    _spec, data = runtime_wheel()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    modules = {name[:-3].replace("/", ".").removesuffix(".__init__") for name in names if name.endswith(".py")}
    archive = zipfile.ZipFile(io.BytesIO(data))
    missing: dict[str, set[str]] = {}
    for name in names:
        if not name.endswith(".py"):
            continue
        module = name[:-3].replace("/", ".")
        for imported in _imported(archive.read(name), module):
            # `from envforge.x import name` adds "envforge.x.name", which is a module only sometimes.
            if imported not in modules and imported.rsplit(".", 1)[0] not in modules:
                missing.setdefault(imported, set()).add(name)
    assert "envforge.runtime.provenance" in modules
    assert "envforge.users.conversation" in modules and "envforge.users.persona" not in modules
    assert missing == {}, f"the runtime wheel lacks modules its files import: {missing}"

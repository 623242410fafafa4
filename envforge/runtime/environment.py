"""A loaded environment: blueprint, tools, the template state, compiled once and shared by sessions."""

from __future__ import annotations

import gc
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from pydantic import ValidationError

from envforge.ir.blueprint import Blueprint
from envforge.ir.loading import load_blueprint_text
from envforge.ir.tables import build_metadata, key_field
from envforge.ir.toolspec import ToolGraph, ToolSpec
from envforge.runtime.argument_check import ArgumentValidator, CompiledValidator
from envforge.runtime.history import history_ddl, with_history
from envforge.runtime.indexes import lookup_indexes
from envforge.runtime.opened_package import OpenedPackage, broken, first_error
from envforge.runtime.statements import EntityStatements

TEXT_TYPES = frozenset({"string", "text"})


@dataclass
class EntityRuntime:
    """What the runtime needs of one entity."""

    name: str
    key: str
    prefix: str
    statements: EntityStatements
    money_fields: frozenset[str]
    boolean_fields: frozenset[str]


@dataclass
class Environment:
    """One environment, loaded and compiled. Create sessions from it with `Session(env)`."""

    blueprint: Blueprint
    toolgraph: ToolGraph
    template: bytes
    """The initial state as SQLite database bytes; the write history's log and triggers are added on load."""
    policy: str
    """The policy document the agent reads."""
    entities: dict[str, EntityRuntime] = field(init=False)
    tools: dict[str, ToolSpec] = field(init=False)
    validators: dict[str, ArgumentValidator] = field(init=False)
    """Tool -> its arguments' validator, compiled once (`envforge.runtime.argument_check`)."""
    keys: dict[str, str] = field(init=False)
    """Entity -> its key column."""
    history_ddl: list[str] = field(init=False)
    """What makes a state keep its write history (`envforge.runtime.history`)."""
    compiled: dict[str, Any] = field(init=False, default_factory=dict)
    """Per-environment compiled forms that sessions share (e.g. actions), filled on first use."""

    def __post_init__(self) -> None:
        metadata = build_metadata(self.blueprint)
        self.entities = {}
        for entity in self.blueprint.entities:
            key = key_field(entity)
            text = frozenset(f.name for f in entity.fields if f.type in TEXT_TYPES)
            self.entities[entity.name] = EntityRuntime(
                name=entity.name,
                key=key.name,
                prefix=key.prefix or entity.name[:3].upper(),
                statements=EntityStatements(metadata.tables[entity.name], key.name, text),
                money_fields=frozenset(f.name for f in entity.fields if f.type == "money"),
                boolean_fields=frozenset(f.name for f in entity.fields if f.type == "boolean"),
            )
        self.keys = {name: runtime.key for name, runtime in self.entities.items()}
        self.history_ddl = history_ddl(
            {
                name: (runtime.key, list(runtime.statements.table.columns.keys()))
                for name, runtime in self.entities.items()
            }
        )
        finds = [(tool.entity, tool.filters[0]) for tool in self.toolgraph.tools if tool.operation == "find"]
        indexes = lookup_indexes((runtime.statements.table for runtime in self.entities.values()), finds)
        self.template = with_history(self.template, [*indexes, *self.history_ddl])
        self.tools = {tool.name: tool for tool in self.toolgraph.tools}
        self.validators = {tool.name: CompiledValidator(tool.parameters) for tool in self.toolgraph.tools}

    @property
    def env_id(self) -> str:
        return self.blueprint.env_id

    def tool_list(self) -> list[dict[str, Any]]:
        """Tools in OpenAI function-calling form."""
        return [tool.openai_tool() for tool in self.toolgraph.tools]


def load_environment(package: OpenedPackage) -> Environment:
    """Load an opened environment package (see the package format in the README): each file it reads is checked
    against the manifest's hash unless the package was opened unchecked."""
    root = package.path
    blueprint = load_blueprint_text(package.read_text("blueprint.yaml"), str(root / "blueprint.yaml"))
    toolgraph = _load_toolgraph(package)
    template = package.read("state.sqlite")
    check_template(template, root)
    policy = package.read_text("policy.md")
    try:
        environment = Environment(blueprint, toolgraph, template, policy)
    except sqlite3.DatabaseError as exc:
        where = zeroed_pages(template)
        raise broken(root / "state.sqlite", f"damaged SQLite database{where} ({exc})", root) from None
    # Long-lived compiled objects: keep the cyclic GC from rescanning them on every collection.
    gc.freeze()
    return environment


def _load_toolgraph(package: OpenedPackage) -> ToolGraph:
    data = package.read("toolgraph.json")
    try:
        return ToolGraph.model_validate_json(data)
    except ValidationError as exc:
        raise broken(
            package.path / "toolgraph.json", f"not a valid tool graph ({first_error(exc)})", package.path
        ) from None


SQLITE_HEADER = b"SQLite format 3\x00"


def check_template(template: bytes, package: Path) -> None:
    """Refuse a state that is not a SQLite database, before SQLite is handed it (an empty one raises MemoryError)."""
    path = package / "state.sqlite"
    if not template.startswith(SQLITE_HEADER):
        what = "empty (0 bytes)" if not template else f"does not start with the SQLite header ({len(template):,} bytes)"
        raise broken(path, f"not a SQLite database: {what}", package)
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(template)
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except (sqlite3.DatabaseError, MemoryError) as exc:
        raise broken(path, f"not a SQLite database ({exc or type(exc).__name__})", package) from None
    finally:
        connection.close()


def zeroed_pages(template: bytes) -> str:
    """Where a state's pages are all zeros (what a torn or truncated copy leaves), e.g. ' at pages 6-12 of 22'."""
    size = int.from_bytes(template[16:18], "big")
    page_size = 65536 if size == 1 else size
    if page_size < 512:
        return ""
    count = len(template) // page_size
    blank = bytes(page_size)
    zeros = [n + 1 for n in range(count) if template[n * page_size : (n + 1) * page_size] == blank]
    if not zeros:
        return ""
    first, last = zeros[0], zeros[-1]
    pages = (
        f"page {first}"
        if first == last
        else f"pages {first}-{last}"
        if len(zeros) == last - first + 1
        else f"{len(zeros)} pages from page {first}"
    )
    return f" at {pages} of {count} (bytes {(first - 1) * page_size:,}+), which are all zeros"


def dump_blueprint(blueprint: Blueprint) -> str:
    """The resolved blueprint as YAML (defaults filled in, stable key order)."""
    data = blueprint.model_dump(mode="json", exclude_defaults=False)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)

"""A loaded environment: blueprint, tools, the template state, compiled once and shared by sessions."""

from __future__ import annotations

import gc
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from envforge.errors import PackageError
from envforge.ir.blueprint import Blueprint
from envforge.ir.loading import load_blueprint_text
from envforge.ir.tables import build_metadata, key_field
from envforge.ir.toolspec import ToolGraph, ToolSpec
from envforge.runtime.history import history_ddl, with_history
from envforge.runtime.indexes import lookup_indexes
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
    validators: dict[str, Draft202012Validator] = field(init=False)
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
        self.validators = {tool.name: Draft202012Validator(tool.parameters) for tool in self.toolgraph.tools}

    @property
    def env_id(self) -> str:
        return self.blueprint.env_id

    def tool_list(self) -> list[dict[str, Any]]:
        """Tools in OpenAI function-calling form."""
        return [tool.openai_tool() for tool in self.toolgraph.tools]


def load_environment(package: Path) -> Environment:
    """Load an environment package directory (see the package format in the README)."""
    if not package.is_dir():
        raise PackageError(f"{package}: not an environment package directory; run `envforge generate` first")
    needed = ["blueprint.yaml", "toolgraph.json", "state.sqlite", "policy.md"]
    missing = [name for name in needed if not (package / name).is_file()]
    if missing:
        raise PackageError(f"{package}: missing {', '.join(missing)}; regenerate the package with `envforge generate`")
    blueprint = load_blueprint_text(
        (package / "blueprint.yaml").read_text(encoding="utf-8"), str(package / "blueprint.yaml")
    )
    toolgraph = ToolGraph.model_validate_json((package / "toolgraph.json").read_bytes())
    template = (package / "state.sqlite").read_bytes()
    _check_template(template, package)
    environment = Environment(blueprint, toolgraph, template, (package / "policy.md").read_text(encoding="utf-8"))
    # Long-lived compiled objects: keep the cyclic GC from rescanning them on every collection.
    gc.freeze()
    return environment


def _check_template(template: bytes, package: Path) -> None:
    connection = sqlite3.connect(":memory:")
    try:
        connection.deserialize(template)
        connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
    except sqlite3.DatabaseError as exc:
        raise PackageError(
            f"{package / 'state.sqlite'}: not a SQLite database ({exc}); regenerate the package"
        ) from None
    finally:
        connection.close()


def dump_blueprint(blueprint: Blueprint) -> str:
    """The resolved blueprint as YAML (defaults filled in, stable key order)."""
    data = blueprint.model_dump(mode="json", exclude_defaults=False)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100)

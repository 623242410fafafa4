"""Build the initial state database from seeded rows."""

from __future__ import annotations

import sqlite3

from sqlalchemy.dialects import sqlite
from sqlalchemy.schema import CreateTable

from envforge.ir.blueprint import Blueprint
from envforge.ir.ontology import Ontology
from envforge.ir.tables import build_metadata
from envforge.runtime.statements import EntityStatements
from envforge.stages.state.seed import seed_rows


def render_ddl(blueprint: Blueprint) -> str:
    """CREATE TABLE statements for every entity, parents first."""
    metadata = build_metadata(blueprint)
    dialect = sqlite.dialect()
    return (
        ";\n".join(str(CreateTable(table).compile(dialect=dialect)).strip() for table in metadata.sorted_tables) + ";\n"
    )


def build_state(blueprint: Blueprint, ontology: Ontology, *, rows: int, seed: int) -> tuple[bytes, dict[str, int]]:
    """Return the SQLite database bytes and the row count per table."""
    metadata = build_metadata(blueprint)
    tables = seed_rows(blueprint, ontology, rows=rows, seed=seed)
    connection = sqlite3.connect(":memory:", isolation_level=None)
    try:
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute("BEGIN")
        for statement in render_ddl(blueprint).split(";\n"):
            if statement.strip():
                connection.execute(statement)
        for entity in ontology.entities:
            table = metadata.tables[entity.name]
            insert = EntityStatements(table, entity.key, frozenset()).insert
            connection.executemany(insert, tables[entity.name])
        connection.execute("COMMIT")
        connection.execute("VACUUM")
        return connection.serialize(), {name: len(rows) for name, rows in tables.items()}
    finally:
        connection.close()

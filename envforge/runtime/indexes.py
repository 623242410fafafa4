"""Indexes the runtime adds to a state when it loads it: one per foreign-key column, and one per field a `find`
tool looks up (case-insensitively, as the tool compares).

A session's lookups follow references (a person's orders, an order's items) or find a row by a field (a customer
by email), and a delete checks the rows that refer to it; without an index each is a scan of the whole table, so
a call would cost what the state holds.
The package's `state.sqlite` stays as the state stage wrote it: the indexes live in the loaded template only.
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Table

from envforge.runtime.history import PRIVATE_PREFIX, quote


def lookup_indexes(tables: Iterable[Table], finds: Iterable[tuple[str, str]]) -> list[str]:
    """`CREATE INDEX` for every foreign-key column not already indexed by a key or UNIQUE constraint, and on
    `lower(field)` for each (table, field) in `finds` (the expression `EntityStatements.find` filters on)."""
    statements = []
    for table in sorted(tables, key=lambda table: table.name):
        for column in table.columns:
            if column.foreign_keys and not column.primary_key and not column.unique:
                name = quote(f"{PRIVATE_PREFIX}{table.name}_{column.name}")
                statements.append(f"CREATE INDEX IF NOT EXISTS {name} ON {quote(table.name)} ({quote(column.name)})")
    for table_name, field in sorted(set(finds)):
        name = quote(f"{PRIVATE_PREFIX}{table_name}_lower_{field}")
        statements.append(f"CREATE INDEX IF NOT EXISTS {name} ON {quote(table_name)} (lower({quote(field)}))")
    return statements

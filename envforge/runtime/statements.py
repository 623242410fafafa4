"""SQL for one entity, built with SQLAlchemy Core and compiled once; values always go in as parameters."""

from __future__ import annotations

from functools import cache
from typing import Any

from sqlalchemy import Table, bindparam, func, insert, literal_column, select, update
from sqlalchemy import delete as sql_delete
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql import ClauseElement
from sqlalchemy.sql.elements import ColumnElement

_DIALECT = sqlite.dialect(paramstyle="named")
LIKE_ESCAPE = "/"


def _sql(statement: ClauseElement) -> str:
    return str(statement.compile(dialect=_DIALECT))


def like_pattern(text: str) -> str:
    """A LIKE pattern matching `text` anywhere, with LIKE's wildcards escaped."""
    for char in (LIKE_ESCAPE, "%", "_"):
        text = text.replace(char, LIKE_ESCAPE + char)
    return f"%{text}%"


class EntityStatements:
    """Compiled statements for one table. Parameter names equal column names, plus `limit`/`offset`."""

    def __init__(self, table: Table, key: str, text_fields: frozenset[str]) -> None:
        self.table = table
        self.key = key
        self.text_fields = text_fields
        column = table.c[key]
        self.select_by_key = _sql(select(table).where(column == bindparam(key)))
        self.insert = _sql(insert(table).values({column.name: bindparam(column.name) for column in table.columns}))
        self.delete_by_key = _sql(sql_delete(table).where(column == bindparam(key)))
        self.max_key = _sql(select(func.max(column)))
        self.select_all = _sql(select(table).order_by(column))

    @cache  # noqa: B019 - statements live as long as the environment, which owns them
    def find(self, field: str) -> str:
        return _sql(
            select(self.table)
            .where(func.lower(self.table.c[field]) == func.lower(bindparam(field)))
            .order_by(self.table.c[self.key])
        )

    @cache  # noqa: B019
    def select_match(self, fields: tuple[str, ...]) -> str:
        clauses = [self.table.c[field] == bindparam(field) for field in fields]
        return _sql(select(self.table).where(*clauses).order_by(self.table.c[self.key]))

    @cache  # noqa: B019
    def update(self, fields: tuple[str, ...]) -> str:
        values: dict[str, Any] = {field: bindparam(f"new_{field}") for field in fields}
        return _sql(update(self.table).where(self.table.c[self.key] == bindparam(self.key)).values(values))

    @cache  # noqa: B019
    def add(self, field: str, money: bool) -> str:
        column = self.table.c[field]
        value = column + bindparam("amount")
        new = func.round(value, literal_column("2")) if money else value
        return _sql(update(self.table).where(self.table.c[self.key] == bindparam(self.key)).values({field: new}))

    @cache  # noqa: B019
    def keys_where(self, fields: tuple[str, ...]) -> str:
        clauses = [self.table.c[field] == bindparam(field) for field in fields]
        return _sql(select(self.table.c[self.key]).where(*clauses).order_by(self.table.c[self.key]))

    @cache  # noqa: B019
    def listing(self, fields: tuple[str, ...]) -> tuple[str, str]:
        """(count query, page query) filtering on `fields`; text fields match by substring."""
        clauses: list[ColumnElement[bool]] = []
        for field in fields:
            column = self.table.c[field]
            if field in self.text_fields:
                # SQLite's LIKE already ignores ASCII case, the only case its lower() folds: `ilike`'s
                # lower(x) LIKE lower(?) matches the same rows at twice the cost of a scan.
                clauses.append(column.like(bindparam(field), escape=LIKE_ESCAPE))
            else:
                clauses.append(column == bindparam(field))
        count = select(func.count()).select_from(self.table).where(*clauses)
        page = (
            select(self.table)
            .where(*clauses)
            .order_by(self.table.c[self.key])
            .limit(bindparam("limit"))
            .offset(bindparam("offset"))
        )
        return _sql(count), _sql(page)

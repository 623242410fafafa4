"""SQLAlchemy tables derived from a blueprint: the DDL is never written by hand."""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    column,
    func,
)
from sqlalchemy.sql.elements import ColumnClause
from sqlalchemy.types import TypeEngine

from envforge.ir.blueprint import Blueprint, EntitySpec, FieldSpec

_TYPES: dict[str, type[TypeEngine[Any]]] = {
    "id": String,
    "ref": String,
    "string": String,
    "text": Text,
    "integer": Integer,
    "number": Float,
    "money": Float,
    "boolean": Boolean,
    "date": String,
    "datetime": String,
    "enum": String,
}


def key_field(entity: EntitySpec) -> FieldSpec:
    return next(field for field in entity.fields if field.type == "id")


def _constraints(entity: EntitySpec, field: FieldSpec) -> list[CheckConstraint]:
    value: ColumnClause[Any] = column(field.name)
    checks = []
    if field.values:
        checks.append(CheckConstraint(value.in_(field.values), name=f"ck_{entity.name}_{field.name}_values"))
    if field.minimum is not None:
        checks.append(CheckConstraint(value >= field.minimum, name=f"ck_{entity.name}_{field.name}_min"))
    if field.maximum is not None:
        checks.append(CheckConstraint(value <= field.maximum, name=f"ck_{entity.name}_{field.name}_max"))
    if field.max_length is not None:
        checks.append(
            CheckConstraint(func.length(value) <= field.max_length, name=f"ck_{entity.name}_{field.name}_len")
        )
    return checks


def build_metadata(blueprint: Blueprint) -> MetaData:
    """One table per entity, with keys, foreign keys, NOT NULL, UNIQUE and CHECK constraints."""
    metadata = MetaData()
    relations = {(relation.child, relation.field): relation for relation in blueprint.relations}
    for entity in blueprint.entities:
        columns: list[Column[object] | CheckConstraint] = []
        for field in entity.fields:
            relation = relations.get((entity.name, field.name))
            args: list[ForeignKey] = []
            nullable = field.nullable
            unique = field.unique
            if relation is not None:
                parent = blueprint.entity(relation.parent)
                args.append(ForeignKey(f"{parent.name}.{key_field(parent).name}"))
                nullable = not relation.required
                unique = unique or relation.cardinality == "one_to_one"
            columns.append(
                Column(
                    field.name,
                    _TYPES[field.type](),
                    *args,
                    primary_key=field.type == "id",
                    nullable=nullable and field.type != "id",
                    unique=unique and field.type != "id",
                )
            )
            columns.extend(_constraints(entity, field))
        Table(entity.name, metadata, *columns)
    return metadata

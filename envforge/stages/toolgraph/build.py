"""Derive every tool of an environment and the edges between them."""

from __future__ import annotations

from typing import Any, Literal, assert_never

from envforge.ir.blueprint import (
    ActionSpec,
    Blueprint,
    DecrementEffect,
    DeleteEffect,
    IncrementEffect,
    InsertEffect,
    UpdateEffect,
)
from envforge.ir.jsonschema_types import value_schema
from envforge.ir.naming import find_fields, find_tool_name, get_tool_name, list_tool_name
from envforge.ir.ontology import Ontology, OntologyEntity
from envforge.ir.toolspec import JSONSchema, ToolEdge, ToolGraph, ToolSpec

LIST_LIMIT_MAX = 100
LIST_LIMIT_DEFAULT = 20
LISTED_TYPES = ("id", "ref", "enum", "boolean", "date", "datetime")


def _object(properties: dict[str, Any], required: list[str]) -> JSONSchema:
    return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}


def row_schema(entity: OntologyEntity, relations: dict[str, bool], shown: list[str] | None = None) -> JSONSchema:
    """A row as tools return it, all its fields or those `shown`. `relations` maps ref fields to whether they are
    required."""
    fields = [field for field in entity.fields if shown is None or field.name in shown]
    properties = {
        field.name: value_schema(field, nullable=field.nullable or relations.get(field.name) is False)
        for field in fields
    }
    return _object(properties, [field.name for field in fields])


def listed_fields(entity: OntologyEntity) -> list[str]:
    """What a list shows of each row, as a real list endpoint does: the key and links, what rows are filtered,
    found or named by (searchable and unique fields, statuses and kinds, flags, a declared phrase), when they
    happened (dates) and the row's own amount (`total`, `price`). The rest (street lines, counts, balances, other
    amounts, notes) only the entity's get tool shows, which is what makes it a tool an agent needs."""
    return [
        field.name
        for field in entity.fields
        if field.type in LISTED_TYPES
        or field.searchable
        or field.unique
        or field.phrase is not None
        or (field.type == "money" and "_" not in field.name)
    ]


class _Deriver:
    def __init__(self, blueprint: Blueprint, ontology: Ontology) -> None:
        self.blueprint = blueprint
        self.ontology = ontology
        self.parents: dict[str, dict[str, str]] = {entity.name: {} for entity in ontology.entities}
        self.required: dict[str, dict[str, bool]] = {entity.name: {} for entity in ontology.entities}
        for relation in ontology.relations:
            self.parents[relation.child][relation.field] = relation.parent
            self.required[relation.child][relation.field] = relation.required

    def rows(self, entity: OntologyEntity, shown: list[str] | None = None) -> JSONSchema:
        return row_schema(entity, self.required[entity.name], shown)

    def row_refs(self, entity: OntologyEntity, prefix: str) -> dict[str, str]:
        refs = {f"{prefix}{entity.key}": entity.name}
        refs.update({f"{prefix}{field}": parent for field, parent in self.parents[entity.name].items()})
        return refs

    def _one_row_tool(
        self,
        entity: OntologyEntity,
        operation: Literal["get", "find"],
        field: str,
        schema: JSONSchema,
        *,
        name: str,
        description: str,
        param_refs: dict[str, str] | None = None,
    ) -> ToolSpec:
        """A read tool that returns the row of `entity` whose `field` is its one parameter."""
        return ToolSpec(
            name=name,
            description=description,
            kind="read",
            operation=operation,
            entity=entity.name,
            parameters=_object({field: schema}, [field]),
            returns=self.rows(entity),
            reads=[entity.name],
            filters=[field],
            param_refs=param_refs or {},
            output_refs=self.row_refs(entity, ""),
        )

    def get_tool(self, entity: OntologyEntity) -> ToolSpec:
        key = {"type": "string", "description": f"The {entity.name}'s {entity.key}."}
        return self._one_row_tool(
            entity,
            "get",
            entity.key,
            key,
            name=get_tool_name(entity.name),
            description=f"Get one {entity.name} by its {entity.key}. {entity.description}",
            param_refs={entity.key: entity.name},
        )

    def list_tool(self, entity: OntologyEntity) -> ToolSpec:
        filters = [f for f in entity.fields if f.searchable or f.type in ("ref", "enum", "boolean")]
        properties: dict[str, Any] = {}
        for field in filters:
            schema = value_schema(field)
            if field.type in ("string", "text"):
                schema["description"] = f"{field.description} Matches case-insensitively on part of the value.".strip()
            properties[field.name] = schema
        properties["limit"] = {
            "type": "integer",
            "minimum": 1,
            "maximum": LIST_LIMIT_MAX,
            "default": LIST_LIMIT_DEFAULT,
            "description": "Most items to return.",
        }
        properties["offset"] = {
            "type": "integer",
            "minimum": 0,
            "default": 0,
            "description": "Items to skip.",
        }
        names = ", ".join(field.name for field in filters) or "nothing"
        shown = listed_fields(entity)
        return ToolSpec(
            name=list_tool_name(entity.plural),
            description=(
                f"List {entity.plural} filtered by any of: {names}; all filters must match. "
                f"Returns the matching items (at most `limit`, ordered by {entity.key}) and their total count"
                + (
                    f"; each item shows {', '.join(shown)}, and {get_tool_name(entity.name)} shows the rest."
                    if len(shown) < len(entity.fields)
                    else "."
                )
            ),
            kind="read",
            operation="list",
            entity=entity.name,
            parameters=_object(properties, []),
            returns=_object(
                {"items": {"type": "array", "items": self.rows(entity, shown)}, "total": {"type": "integer"}},
                ["items", "total"],
            ),
            reads=[entity.name],
            filters=[field.name for field in filters],
            param_refs={field.name: self.parents[entity.name][field.name] for field in filters if field.type == "ref"},
            output_refs=self.row_refs(entity, "items[]."),
        )

    def find_tools(self, entity: OntologyEntity) -> list[ToolSpec]:
        tools = []
        for field in find_fields(entity.fields):
            schema = value_schema(field)
            schema["description"] = f"The exact {field.name} (case-insensitive)."
            tools.append(
                self._one_row_tool(
                    entity,
                    "find",
                    field.name,
                    schema,
                    name=find_tool_name(entity.name, field.name),
                    description=f"Find the {entity.name} whose {field.name} is exactly the given value.",
                )
            )
        return tools

    def action_tool(self, action: ActionSpec) -> ToolSpec:
        aliases = {binding.name: binding.entity for binding in action.bind}
        writes: list[str] = []
        for effect in action.effects:
            match effect:
                case InsertEffect():
                    aliases[effect.alias] = effect.insert
                    target = effect.insert
                case UpdateEffect():
                    target = aliases[effect.update]
                case IncrementEffect(increment=column) | DecrementEffect(decrement=column):
                    target = aliases[column.split(".")[0]]
                case DeleteEffect():
                    target = effect.delete if effect.where is not None else aliases[effect.delete]
                case _:
                    assert_never(effect)
            if target not in writes:
                writes.append(target)
        properties = {param.name: value_schema(param) for param in action.params}
        for param in action.params:
            if param.ref:
                entity = self.ontology.entity(param.ref)
                properties[param.name].setdefault("description", f"The {entity.name}'s {entity.key}.")
        # A returned row may be absent (an optional binding that found nothing, or a deleted row).
        returns = {
            alias: {"anyOf": [self.rows(self.ontology.entity(aliases[alias])), {"type": "null"}]}
            for alias in action.returns
        }
        output_refs: dict[str, str] = {}
        for alias in action.returns:
            output_refs.update(self.row_refs(self.ontology.entity(aliases[alias]), f"{alias}."))
        policies = [
            policy.id
            for policy in self.blueprint.policies
            if action.name in (policy.actions or []) or (policy.entity is not None and policy.entity in writes)
        ]
        reads = list(dict.fromkeys(binding.entity for binding in action.bind))
        return ToolSpec(
            name=action.name,
            description=action.description,
            kind="write",
            operation="action",
            entity=action.entity,
            parameters=_object(properties, [param.name for param in action.params if param.required]),
            returns=_object(returns, list(returns)),
            reads=reads,
            writes=writes,
            preconditions=[condition.error for condition in action.preconditions],
            policies=policies,
            param_refs={param.name: param.ref for param in action.params if param.ref},
            output_refs=output_refs,
        )


def _edges(tools: list[ToolSpec]) -> list[ToolEdge]:
    edges = []
    for source in tools:
        for output, entity in source.output_refs.items():
            for target in tools:
                if target.name == source.name:
                    continue
                for param, wanted in target.param_refs.items():
                    if wanted == entity:
                        edges.append(
                            ToolEdge(
                                source=source.name,
                                target=target.name,
                                param=param,
                                output=output,
                                entity=entity,
                            )
                        )
    unique: dict[tuple[str, str, str], ToolEdge] = {}
    for edge in edges:
        unique.setdefault((edge.source, edge.target, edge.param), edge)
    return list(unique.values())


def build_toolgraph(blueprint: Blueprint, ontology: Ontology) -> ToolGraph:
    deriver = _Deriver(blueprint, ontology)
    tools: list[ToolSpec] = []
    for entity in sorted(ontology.entities, key=lambda entity: (entity.distance, entity.name)):
        tools.append(deriver.get_tool(entity))
        tools.append(deriver.list_tool(entity))
        tools.extend(deriver.find_tools(entity))
    tools.extend(deriver.action_tool(action) for action in blueprint.actions)
    return ToolGraph(domain=blueprint.domain, tools=tools, edges=_edges(tools))

"""Deriving the apps' screens from the blueprint and the tool graph.

Everything an app can do comes from a tool: list screens from `list_` tools (their filters are the search
controls), `find_` tools add exact lookups, detail screens from `get_` tools, and each WRITE tool becomes an
action form on the detail screen of the record it acts on.
"""

from __future__ import annotations

import re

from envforge.ir.apps import (
    ActionForm,
    AppSpec,
    ColumnKind,
    ColumnView,
    DetailScreen,
    FormField,
    InputKind,
    ListScreen,
    RelatedList,
    SearchControl,
)
from envforge.ir.blueprint import ActionSpec, Blueprint, DeleteEffect, FieldSpec, ParamSpec
from envforge.ir.naming import split_action_name
from envforge.ir.ontology import Ontology, OntologyEntity
from envforge.ir.toolspec import ToolGraph, ToolSpec

DESTRUCTIVE_VERBS = frozenset(
    {"cancel", "delete", "remove", "reject", "close", "revoke", "refund", "terminate", "void", "withdraw", "deny"}
)
LIST_COLUMNS = 6
"""Columns on a list screen besides the key: enough to tell records apart without scrolling sideways."""
FIELD_KINDS: dict[str, ColumnKind] = {
    "id": "key",
    "ref": "ref",
    "string": "text",
    "text": "text",
    "integer": "number",
    "number": "number",
    "money": "money",
    "boolean": "boolean",
    "date": "date",
    "datetime": "datetime",
    "enum": "enum",
}
PARAM_INPUTS: dict[str, InputKind] = {
    "string": "text",
    "text": "textarea",
    "integer": "number",
    "number": "number",
    "money": "money",
    "boolean": "checkbox",
    "date": "date",
    "datetime": "datetime",
    "enum": "select",
}
FIELD_INPUTS: dict[str, InputKind] = {**PARAM_INPUTS, "id": "text", "ref": "record"}
TOOL_HINT = re.compile(r"\s*\((?:see )?[^()]*\b(?:list|get|find)_[a-z0-9_]+[^()]*\)")
"""`(see list_slots with status open)`: a pointer to a tool, for an agent; a form's picker lists the rows instead."""


def label_of(name: str) -> str:
    """`placed_on` -> `Placed on`."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]


def _column(field: FieldSpec, refs: dict[str, str]) -> ColumnView:
    kind = FIELD_KINDS[field.type]
    return ColumnView(name=field.name, label=label_of(field.name), kind=kind, ref=refs.get(field.name))


def _refs(ontology: Ontology, entity: str) -> dict[str, str]:
    """Foreign-key field -> parent entity, for one child entity."""
    return {relation.field: relation.parent for relation in ontology.relations if relation.child == entity}


def _search(tool: ToolSpec, entity: OntologyEntity, refs: dict[str, str]) -> list[SearchControl]:
    fields = {field.name: field for field in entity.fields}
    controls = []
    for name in tool.filters:
        field = fields.get(name)
        if field is None:
            continue
        controls.append(
            SearchControl(
                name=name,
                label=label_of(name),
                input="record" if name in refs else FIELD_INPUTS[field.type],
                options=list(field.values or []),
                tool=tool.name,
                exact=tool.operation == "find",
            )
        )
    return controls


def _input(param: ParamSpec) -> FormField:
    # A record field is a picker of rows: `Slot`, not `Slot id`.
    name = param.name.removesuffix("_id") if param.ref else param.name
    return FormField(
        name=param.name,
        label=label_of(name),
        input="record" if param.ref else PARAM_INPUTS[param.type],
        required=param.required,
        options=list(param.values or []),
        ref=param.ref,
        minimum=param.minimum,
        maximum=param.maximum,
        max_length=param.max_length,
        help=TOOL_HINT.sub("", param.description),
    )


def _anchor(action: ActionSpec, tool: ToolSpec) -> ParamSpec | None:
    """The parameter that names the record the action is about: one of the tool's own entity, else any key."""
    keyed = [param for param in action.params if param.ref]
    own = [param for param in keyed if param.ref == tool.entity]
    chosen = own or keyed
    return chosen[0] if chosen else None


def _form(action: ActionSpec, tool: ToolSpec) -> ActionForm:
    anchor = _anchor(action, tool)
    verb, _ = split_action_name(action.name)
    destructive = verb in DESTRUCTIVE_VERBS or any(isinstance(effect, DeleteEffect) for effect in action.effects)
    return ActionForm(
        tool=action.name,
        title=label_of(action.name),
        description=action.description,
        entity=anchor.ref if anchor is not None and anchor.ref else tool.entity,
        record_param=anchor.name if anchor is not None else None,
        fields=[_input(param) for param in action.params if anchor is None or param.name != anchor.name],
        destructive=destructive,
    )


def build_app_spec(blueprint: Blueprint, ontology: Ontology, toolgraph: ToolGraph) -> AppSpec:
    """Screens and forms for every entity with READ tools and every admitted WRITE tool."""
    tools = {tool.name: tool for tool in toolgraph.tools}
    by_operation: dict[tuple[str, str], list[ToolSpec]] = {}
    for tool in toolgraph.tools:
        by_operation.setdefault((tool.entity, tool.operation), []).append(tool)
    actions = [_form(action, tools[action.name]) for action in blueprint.actions if action.name in tools]
    lists: list[ListScreen] = []
    details: list[DetailScreen] = []
    for entity in sorted(ontology.entities, key=lambda item: item.distance):
        refs = _refs(ontology, entity.name)
        columns = [_column(field, refs) for field in entity.fields]
        listing = by_operation.get((entity.name, "list"), [])
        if listing:
            search = [c for tool in listing for c in _search(tool, entity, refs)]
            search += [c for tool in by_operation.get((entity.name, "find"), []) for c in _search(tool, entity, refs)]
            lists.append(
                ListScreen(
                    entity=entity.name,
                    title=label_of(entity.plural),
                    tool=listing[0].name,
                    # A list shows what its tool lists of each row; the rest is on the record's own screen.
                    columns=[column for column in columns if column.name in listing[0].shown_fields()][
                        : LIST_COLUMNS + 1
                    ],
                    search=search,
                    actions=[form.tool for form in actions if form.entity == entity.name and form.record_param is None],
                )
            )
        getter = by_operation.get((entity.name, "get"), [])
        if getter:
            related = [
                RelatedList(
                    entity=relation.child, label=label_of(ontology.entity(relation.child).plural), field=relation.field
                )
                for relation in ontology.relations
                if relation.parent == entity.name
                and any(relation.field in tool.filters for tool in by_operation.get((relation.child, "list"), []))
            ]
            details.append(
                DetailScreen(
                    entity=entity.name,
                    title=label_of(entity.name),
                    tool=getter[0].name,
                    fields=columns,
                    related=related,
                    actions=[form.tool for form in actions if form.entity == entity.name and form.record_param],
                )
            )
    return AppSpec(
        env_id=blueprint.env_id,
        title=blueprint.title,
        navigation=[screen.entity for screen in lists],
        lists=lists,
        details=details,
        actions=actions,
    )

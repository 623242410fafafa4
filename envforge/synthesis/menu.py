"""The menu of domain actions a model may choose from, each expanded into a well-formed ActionSpec.

Declarative effects and preconditions are expressions over bound rows: easy for a model to get subtly
wrong. So the model picks a kind of action, a target column (an enum of the columns that exist) and, for
status changes, the from/to values (enums of that column's values); the bindings, preconditions and
effects are written here, and the model only names and describes the action.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from envforge.synthesis.drafts import DraftError, EntitySketch, alias_of
from envforge.synthesis.schemas import ACTION_NAME, MAX_ACTIONS, JSONSchema, array, name, obj, text

NUMERIC = ("integer", "number", "money")
MAX_AMOUNT = 100_000
"""Numeric arguments are bounded: amounts in a service domain are, and tool tests draw from the range."""
STEP = "actions"


def _const(value: str) -> JSONSchema:
    return {"const": value}


def _enum(values: list[str]) -> JSONSchema:
    return {"type": "string", "enum": values}


def _named(properties: dict[str, JSONSchema]) -> JSONSchema:
    return obj(
        {
            **properties,
            "name": name(ACTION_NAME, "Tool name, verb_noun, e.g. cancel_order."),
            "description": text(150, 3),
        }
    )


def action_options(sketches: list[EntitySketch]) -> list[JSONSchema]:
    """One schema per kind of action the entities allow; together they are the `anyOf` of the step."""
    options: list[JSONSchema] = []
    for sketch in sketches:
        for item in sketch.fields:
            if item["type"] == "enum":
                values = list(item["values"])
                options.append(
                    _named(
                        {
                            "kind": _const("change_status"),
                            "target": _const(f"{sketch.name}.{item['name']}"),
                            "from_value": _enum(values),
                            "to_value": _enum(values),
                        }
                    )
                )
    editable = [f"{sketch.name}.{item['name']}" for sketch in sketches for item in sketch.fields]
    if editable:
        options.append(_named({"kind": _const("set_field"), "target": _enum(editable)}))
    numeric = [f"{s.name}.{item['name']}" for s in sketches for item in s.fields if item["type"] in NUMERIC]
    if numeric:
        options.append(_named({"kind": _enum(["add_to", "subtract_from"]), "target": _enum(numeric)}))
    creatable = [sketch.name for sketch in sketches if sketch.refs]
    if creatable:
        options.append(_named({"kind": _const("create"), "target": _enum(creatable)}))
    return options


def actions_schema(sketches: list[EntitySketch]) -> JSONSchema:
    return obj({"actions": array({"anyOf": action_options(sketches)}, 1, MAX_ACTIONS)})


def _literal(value: Any) -> str:
    return repr(value)


def _param(item: dict[str, Any]) -> dict[str, Any]:
    param: dict[str, Any] = {"name": item["name"], "type": item["type"], "description": item.get("description", "")}
    if item["type"] == "enum":
        param["values"] = list(item["values"])
    if item["type"] in ("string", "text"):
        param["max_length"] = 200
    if item["type"] in NUMERIC:
        param["minimum"], param["maximum"] = 0, MAX_AMOUNT
    return param


def expand_action(choice: Mapping[str, Any], entities: Mapping[str, EntitySketch], index: int) -> dict[str, Any]:
    """The ActionSpec dict of one menu choice. Raises DraftError when the choice is contradictory."""
    kind = str(choice["kind"])
    target = str(choice["target"])
    entity_name, _, field_name = target.partition(".")
    sketch = entities.get(entity_name)
    where = f"actions[{index}] ({choice.get('name', kind)})"
    if sketch is None:
        raise DraftError(STEP, f"{where}: '{entity_name}' is not one of the entities")
    alias = alias_of(sketch.name)
    head = {"name": choice["name"], "description": choice["description"], "entity": sketch.name}
    if kind == "create":
        return {**head, **_create(sketch, entities)}
    item = sketch.column(field_name)
    if item is None:
        raise DraftError(STEP, f"{where}: '{target}' is not a column of '{sketch.name}'")
    key_param = {"name": sketch.key, "ref": sketch.name, "description": f"Key of the {sketch.name}."}
    bind = [{"name": alias, "entity": sketch.name, "key": f"args.{sketch.key}"}]
    if kind == "change_status":
        before, after = choice["from_value"], choice["to_value"]
        if before == after:
            raise DraftError(STEP, f"{where}: from_value and to_value are both '{before}'; a change needs two values")
        return {
            **head,
            "params": [key_param],
            "bind": bind,
            "preconditions": [
                {
                    "require": f"{alias}.{field_name} == {_literal(before)}",
                    "error": f"Only a {sketch.name} whose {field_name} is {before} can be changed this way.",
                }
            ],
            "effects": [{"update": alias, "set": {field_name: _literal(after)}}],
            "returns": [alias],
        }
    if kind == "set_field":
        return {
            **head,
            "params": [key_param, _param(item)],
            "bind": bind,
            "preconditions": [
                {
                    "require": f"args.{field_name} != {alias}.{field_name}",
                    "error": f"The {sketch.name} already has this {field_name}.",
                }
            ],
            "effects": [{"update": alias, "set": {field_name: f"args.{field_name}"}}],
            "returns": [alias],
        }
    if kind in ("add_to", "subtract_from"):
        if item["type"] not in NUMERIC:
            raise DraftError(STEP, f"{where}: '{target}' is not a number; {kind} needs a numeric column")
        amount = "amount" if field_name != "amount" else "change"
        param = {
            "name": amount,
            "type": item["type"],
            "minimum": 1 if item["type"] == "integer" else 0.01,
            "maximum": MAX_AMOUNT,
            "description": f"How much to {'add to' if kind == 'add_to' else 'subtract from'} the {field_name}.",
        }
        effect_key = "increment" if kind == "add_to" else "decrement"
        preconditions = (
            [
                {
                    "require": f"{alias}.{field_name} >= args.{amount}",
                    "error": f"The {field_name} is less than that amount.",
                }
            ]
            if kind == "subtract_from"
            else []
        )
        return {
            **head,
            "params": [key_param, param],
            "bind": bind,
            "preconditions": preconditions,
            "effects": [{effect_key: f"{alias}.{field_name}", "by": f"args.{amount}"}],
            "returns": [alias],
        }
    raise DraftError(STEP, f"{where}: unknown kind '{kind}'")


def _create(sketch: EntitySketch, entities: Mapping[str, EntitySketch]) -> dict[str, Any]:
    """Insert a row under its parents: references from bound parents, enums at their first value, the rest
    from arguments."""
    params: list[dict[str, Any]] = []
    bind: list[dict[str, Any]] = []
    values: dict[str, str] = {}
    for ref, parent in sketch.refs:
        parent_alias = alias_of(parent)
        params.append({"name": ref, "ref": parent, "description": f"Key of the {parent}."})
        bind.append({"name": parent_alias, "entity": parent, "key": f"args.{ref}"})
        values[ref] = f"{parent_alias}.{entities[parent].key}"
    for item in sketch.fields:
        if item["type"] == "enum":
            values[item["name"]] = _literal(item["values"][0])
        else:
            params.append(_param(item))
            values[item["name"]] = f"args.{item['name']}"
    created = f"new_{sketch.name}"
    return {
        "params": params,
        "bind": bind,
        "preconditions": [],
        "effects": [{"insert": sketch.name, "alias": created, "values": values}],
        "returns": [created],
    }

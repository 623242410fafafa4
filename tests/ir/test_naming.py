"""The tool-naming rule: what envforge/ir/naming.py builds is what every shipped tool graph is called."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.ir.blueprint import EntitySpec, FieldSpec
from envforge.ir.loading import load_blueprint
from envforge.ir.naming import (
    find_tool_name,
    get_tool_name,
    list_tool_name,
    plural_of,
    read_tool_names,
    split_action_name,
)
from envforge.stages.ontology.build import build_ontology
from envforge.stages.toolgraph.build import build_toolgraph
from tests.conftest import BLUEPRINTS

KEY = FieldSpec(name="person_id", type="id")
NAME = FieldSpec(name="name", type="string")


def test_the_rule_spelled_out() -> None:
    assert get_tool_name("order") == "get_order"
    assert list_tool_name("orders") == "list_orders"
    assert find_tool_name("customer", "email") == "find_customer_by_email"
    assert plural_of(EntitySpec(name="order", description="", fields=[KEY, NAME])) == "orders"
    assert plural_of(EntitySpec(name="person", plural="people", description="", fields=[KEY, NAME])) == "people"
    assert split_action_name("cancel_order") == ("cancel", "order")
    assert split_action_name("move_hold_item") == ("move", "hold_item")
    assert split_action_name("refund") == ("refund", "")


@pytest.mark.parametrize("path", BLUEPRINTS, ids=lambda path: path.stem)
def test_every_tool_is_named_by_the_rule_and_its_name_reads_back(path: Path) -> None:
    blueprint = load_blueprint(path)
    ontology = build_ontology(blueprint)
    graph = build_toolgraph(blueprint, ontology)
    reads = read_tool_names(blueprint)
    assert sorted(tool.name for tool in graph.tools if tool.kind == "read") == sorted(reads)
    for tool in graph.tools:
        if tool.operation == "get":
            assert tool.name == get_tool_name(tool.entity)
        elif tool.operation == "list":
            assert tool.name == list_tool_name(ontology.entity(tool.entity).plural)
        elif tool.operation == "find":
            assert tool.name == find_tool_name(tool.entity, tool.filters[0])
        if tool.kind == "read":
            assert reads[tool.name] == tool.entity
    actions = [tool.name for tool in graph.tools if tool.kind == "write"]
    assert actions == [action.name for action in blueprint.actions]
    for name in actions:
        verb, noun = split_action_name(name)
        assert noun
        assert f"{verb}_{noun}" == name

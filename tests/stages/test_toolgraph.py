"""Tools derived from each shipped blueprint, and the edges of the tool-dependency graph."""

from __future__ import annotations

from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from envforge.ir.loading import load_blueprint
from envforge.stages.ontology.build import build_ontology
from envforge.stages.toolgraph.build import build_toolgraph
from envforge.stages.toolgraph.render import render_svg
from tests.conftest import BLUEPRINTS

MIN_ENTITIES, MIN_RELATIONS, MIN_ACTIONS, MIN_POLICIES, MIN_PERSONAS, MIN_TOOLS = 6, 3, 8, 4, 3, 25


@pytest.mark.parametrize("path", BLUEPRINTS, ids=lambda path: path.stem)
def test_every_shipped_domain_is_rich_enough(path: Path) -> None:
    blueprint = load_blueprint(path)
    graph = build_toolgraph(blueprint, build_ontology(blueprint))
    assert len(blueprint.entities) >= MIN_ENTITIES
    assert len(blueprint.relations) >= MIN_RELATIONS
    assert len(blueprint.actions) >= MIN_ACTIONS
    assert len(blueprint.policies) >= MIN_POLICIES
    assert len(blueprint.personas) >= MIN_PERSONAS
    assert len(graph.tools) >= MIN_TOOLS
    assert any(len(tool.writes) > 1 for tool in graph.tools), "no action touches more than one table"


@pytest.mark.parametrize("path", BLUEPRINTS, ids=lambda path: path.stem)
def test_tool_schemas_are_valid_and_every_edge_carries_a_key_of_the_right_entity(path: Path) -> None:
    blueprint = load_blueprint(path)
    graph = build_toolgraph(blueprint, build_ontology(blueprint))
    tools = {tool.name: tool for tool in graph.tools}
    assert len(tools) == len(graph.tools)
    for tool in graph.tools:
        Draft202012Validator.check_schema(tool.parameters)
        Draft202012Validator.check_schema(tool.returns)
        assert tool.parameters["additionalProperties"] is False
        assert (tool.kind == "write") == (tool.operation == "action")
        assert tool.name.split("_")[0].isalpha()
    for edge in graph.edges:
        assert tools[edge.source].output_refs[edge.output] == edge.entity
        assert tools[edge.target].param_refs[edge.param] == edge.entity


def test_retail_lookup_tools_feed_its_actions() -> None:
    blueprint = load_blueprint(Path("blueprints/retail.yaml"))
    graph = build_toolgraph(blueprint, build_ontology(blueprint))
    edges = {(edge.source, edge.target, edge.param) for edge in graph.edges}
    assert ("list_orders", "cancel_order", "order_id") in edges
    assert ("find_customer_by_email", "grant_store_credit", "customer_id") in edges
    assert ("list_order_items", "request_return", "item_id") in edges
    cancel = graph.tool("cancel_order")
    assert cancel.kind == "write" and set(cancel.writes) == {"order", "refund", "payment"}
    assert cancel.preconditions == ["Only pending or processing orders can be cancelled."]


def test_the_picture_is_deterministic_svg() -> None:
    blueprint = load_blueprint(Path("blueprints/retail.yaml"))
    graph = build_toolgraph(blueprint, build_ontology(blueprint))
    svg = render_svg(graph)
    assert svg.startswith("<?xml") and "<svg" in svg and "cancel_order" in svg
    assert render_svg(graph) == svg

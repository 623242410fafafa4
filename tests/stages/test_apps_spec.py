"""The apps' screens come from the tools: every WRITE tool reachable as a form, every control a real filter."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.ir.apps import AppSpec
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.stages.apps.spec import build_app_spec
from envforge.stages.ontology.build import build_ontology
from tests.conftest import BLUEPRINTS

DOMAINS = [path.stem for path in BLUEPRINTS]


def spec_of(env: Environment) -> AppSpec:
    return build_app_spec(env.blueprint, build_ontology(env.blueprint), env.toolgraph)


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_write_tool_is_a_form_reachable_from_a_screen(packages: dict[str, Path], domain: str) -> None:
    env = load_environment(open_package(packages[domain]))
    spec = spec_of(env)
    writes = {name for name, tool in env.tools.items() if tool.kind == "write"}
    assert {form.tool for form in spec.actions} == writes
    for form in spec.actions:
        if form.record_param is None:
            assert form.tool in next(screen for screen in spec.lists if screen.entity == form.entity).actions
        else:
            assert form.tool in spec.detail(form.entity).actions
            assert env.tools[form.tool].param_refs[form.record_param] == form.entity


@pytest.mark.parametrize("domain", DOMAINS)
def test_form_fields_and_search_controls_are_exactly_tool_parameters(packages: dict[str, Path], domain: str) -> None:
    env = load_environment(open_package(packages[domain]))
    spec = spec_of(env)
    for form in spec.actions:
        parameters = env.tools[form.tool].parameters
        named = {field.name for field in form.fields} | ({form.record_param} if form.record_param else set())
        assert named == set(parameters["properties"])
        required = {field.name for field in form.fields if field.required}
        assert set(parameters.get("required", [])) - {form.record_param} == required
        for field in form.fields:
            schema = parameters["properties"][field.name]
            if field.input == "select":
                assert field.options and set(field.options) <= set(schema["enum"])
    for screen in spec.lists:
        assert screen.entity in spec.navigation
        for control in screen.search:
            tool = env.tools[control.tool]
            assert tool.entity == screen.entity and control.name in tool.filters
            assert control.exact == (tool.operation == "find")


def test_retail_puts_each_action_on_the_record_it_changes(packages: dict[str, Path]) -> None:
    spec = spec_of(load_environment(open_package(packages["retail"])))
    cancel = spec.action("cancel_order")
    assert (cancel.entity, cancel.record_param, cancel.destructive) == ("order", "order_id", True)
    assert [(field.name, field.input) for field in cancel.fields] == [("reason", "select")]
    address = spec.action("add_address")
    assert (address.entity, address.record_param, address.destructive) == ("customer", "customer_id", False)
    shipping = spec.action("update_shipping_address")
    assert [(field.name, field.input, field.ref) for field in shipping.fields] == [("address_id", "record", "address")]
    assert [related.entity for related in spec.detail("customer").related] == ["address", "order"]
    assert spec.navigation[0] == "customer"

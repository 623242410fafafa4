"""Every `get_*` tool earns its place: lists show a summary of each row, so a detail (a street line, a quantity,
a balance) is shown only by the row's get tool; tasks that need a detail call it, and a get tool no task calls
is reported with the reason, which for a redundant one is a tool the tasks call that shows every field it does."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import pytest

from envforge.ir.toolspec import JsonValue, ToolResult
from envforge.ir.verification import ValidationReport
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_tasks
from tests.conftest import BLUEPRINTS, DefaultPackages, slow_domains
from tests.stages.test_task_quality import replay

DOMAINS = [path.stem for path in BLUEPRINTS]
SHIPPED = [path.stem for path in BLUEPRINTS if path.parent.name == "blueprints"]


def test_a_list_shows_a_summary_and_the_get_tool_the_details(retail_env: Environment) -> None:
    graph = retail_env.toolgraph
    listed = graph.tool("list_orders").shown_fields()
    assert set(listed) == {"order_id", "customer_id", "status", "placed_on", "delivered_on", "total"}
    assert {"ship_street", "ship_city", "ship_postal_code"} <= set(graph.tool("get_order").shown_fields())
    assert "get_order shows the rest" in graph.tool("list_orders").description
    session = Session(retail_env)
    page = session.call("list_orders", {"limit": 3})
    items = [dict(row) for row in _rows(page)]
    assert [set(row) for row in items] == [set(listed)] * 3
    row = session.call("get_order", {"order_id": items[0]["order_id"]})
    assert row["ship_postal_code"] and set(listed) < set(row)


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_question_about_a_detail_is_answered_only_by_the_get_tool(packages: dict[str, Path], domain: str) -> None:
    env = load_environment(open_package(packages[domain]))
    tools = {tool.name: tool for tool in env.toolgraph.tools}
    session = Session(env)
    asked = 0
    for task in load_tasks(open_package(packages[domain])).values():
        spec = task.verifier.answer
        if spec is None or spec.field is None or tools[task.oracle[-1].name].operation != "get":
            continue
        field = spec.field.split(".")[-1]
        _, results = replay(session, task.oracle)
        shown = [row for result in results[:-1] for row in _rows(result)]
        assert all(field not in row for row in shown), (task.id, field)
        value = results[-1][field]
        assert (f"{value:.2f}" if isinstance(value, float) else str(value)) == spec.value, task.id
        asked += 1
    assert asked > 0, f"no {domain} question asks a detail only a get tool shows"


def _rows(result: ToolResult) -> list[Mapping[str, JsonValue]]:
    """The rows a READ result shows: its page's items, or the one row."""
    page = result.get("items")
    return [row for row in (page if isinstance(page, list) else [result]) if isinstance(row, Mapping)]


def _reads(package: Path) -> tuple[Environment, ValidationReport]:
    env = load_environment(open_package(package))
    return env, ValidationReport.model_validate_json((package / "report.json").read_text(encoding="utf-8"))


def _check_get_tools(env: Environment, report: ValidationReport) -> list[str]:
    """The get tools a task calls; asserts each other one is reported with its reason, and that one reported as
    redundant is: a tool the tasks call shows every field it does."""
    mix = report.mix
    assert mix is not None
    called = []
    for tool in env.toolgraph.tools:
        if tool.operation != "get":
            continue
        if mix.by_tool[tool.name]:
            called.append(tool.name)
            continue
        reason = mix.idle_tools[tool.name]
        if "shows every field it does" in reason:
            covering = reason.split(" through ")[1].split(",")[0].split(" or ")
            assert all(mix.by_tool[other] for other in covering), reason
            assert all(set(tool.shown_fields()) <= set(env.toolgraph.tool(o).shown_fields()) for o in covering)
        else:
            assert "only it shows" in reason, reason
    return called


@pytest.mark.parametrize("domain", DOMAINS)
def test_each_get_tool_is_called_by_a_task_or_reported_with_why_not(packages: dict[str, Path], domain: str) -> None:
    env, report = _reads(packages[domain])
    assert _check_get_tools(env, report)


@pytest.mark.slow
@pytest.mark.parametrize("domain", slow_domains("task_quality"))
def test_a_default_package_calls_every_get_tool_that_shows_a_detail_or_says_why(
    default_packages: DefaultPackages, domain: str
) -> None:
    env, report = _reads(default_packages[domain])
    called = _check_get_tools(env, report)
    gets = [tool.name for tool in env.toolgraph.tools if tool.operation == "get"]
    assert len(called) >= len(gets) // 2, (called, report.mix.idle_tools if report.mix else None)

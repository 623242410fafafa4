"""The `tooltests` stage: every tool is exercised before admission, and broken tools are caught."""

from __future__ import annotations

import importlib
import sys
from itertools import zip_longest
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from envforge.ir.blueprint import Blueprint
from envforge.ir.loading import load_blueprint, parse_yaml
from envforge.ir.tooltests import ToolTestReport, ToolTestResult
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.stages.ontology.build import build_ontology
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.state.build import build_state, render_ddl
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.toolgraph.build import build_toolgraph
from envforge.stages.tooltests.arguments import draw_examples, invalid_arguments, valid_arguments
from envforge.stages.tooltests.artifact import ToolTestArtifact
from envforge.stages.tooltests.run import ToolTester, run_tool_tests
from envforge.stages.tooltests.stage import STAGE, ToolTestInputs, build
from tests.conftest import BLUEPRINTS, REPO

RETAIL = REPO / "blueprints" / "retail.yaml"
PLANTED_ROWS = 300
REASSIGN_TO_MISSING_CUSTOMER = """
  - name: reassign_order
    description: Move an order to another customer's account.
    entity: order
    params:
      - {name: order_id, ref: order}
    bind:
      - {name: order, entity: order, key: args.order_id}
    effects:
      - update: order
        set: {customer_id: "'CUS-000000'"}
    returns: [order]
"""
NEGATIVE_TOTAL = """
  - name: apply_discount
    description: Take money off an order's total.
    entity: order
    params:
      - {name: order_id, ref: order}
    bind:
      - {name: order, entity: order, key: args.order_id}
    effects:
      - update: order
        set: {total: "-5"}
    returns: [order]
"""
TEXT_CREDIT = """
  - name: grant_lots_of_credit
    description: Give a customer lots of store credit.
    entity: customer
    params:
      - {name: customer_id, ref: customer}
    bind:
      - {name: customer, entity: customer, key: args.customer_id}
    effects:
      - update: customer
        set: {store_credit: "'lots'"}
    returns: [customer]
"""
NEVER_ALLOWED = """
  - name: refund_negative_credit
    description: Bring negative store credit back to zero.
    entity: customer
    params:
      - {name: customer_id, ref: customer}
    bind:
      - {name: customer, entity: customer, key: args.customer_id}
    preconditions:
      - {require: customer.store_credit < 0, error: The store credit is not negative.}
    effects:
      - update: customer
        set: {store_credit: "0"}
    returns: [customer]
"""
"""Store credit has `minimum: 0`, so the precondition holds for no customer, now or after any call."""
NOT_ON_THE_SEEDED_DATA = NEVER_ALLOWED.replace("customer.store_credit < 0", "customer.store_credit > 500")
"""Seeded credit is at most 40, but granting credit can raise it past 500: a later state allows the call."""
NEVER_EVALUATES = NEVER_ALLOWED.replace("customer.store_credit < 0", '"days_between(customer.email, today) > 0"')
"""An email is no date: the precondition fails to evaluate on every call."""


def _retail_with(action: str, tmp_path: Path, *, checked: bool = True) -> Environment:
    """Retail with one more action appended to its `actions:` list; unchecked, past the blueprint checks, as a
    blueprint those miss would be."""
    text = RETAIL.read_text(encoding="utf-8")
    assert "\npolicies:" in text
    path = tmp_path / "retail.yaml"
    path.write_text(text.replace("\npolicies:", action + "\npolicies:", 1), encoding="utf-8")
    if not checked:
        return _environment(Blueprint.model_validate(parse_yaml(path.read_text(encoding="utf-8"), str(path))[0]))
    return _environment(path)


def _environment(source: Path | Blueprint) -> Environment:
    blueprint = load_blueprint(source) if isinstance(source, Path) else source
    ontology = build_ontology(blueprint)
    database, _ = build_state(blueprint, ontology, rows=PLANTED_ROWS, seed=0)
    return Environment(blueprint, build_toolgraph(blueprint, ontology), database, "")


def _result(report: ToolTestReport, tool: str) -> ToolTestResult:
    return next(result for result in report.results if result.tool == tool)


@pytest.fixture(scope="module")
def retail_report() -> ToolTestReport:
    return run_tool_tests(_environment(RETAIL), seed=0)


@pytest.mark.parametrize("domain", [path.stem for path in BLUEPRINTS])
def test_every_tool_of_every_shipped_domain_is_admitted(packages: dict[str, Path], domain: str) -> None:
    env = load_environment(open_package(packages[domain]))
    report = run_tool_tests(env, seed=0)
    assert [result.tool for result in report.results] == [tool.name for tool in env.toolgraph.tools]
    assert [(result.tool, result.reason, result.failing_example) for result in report.excluded()] == []
    assert report.admitted() == set(env.tools)
    for result in report.results:
        assert result.valid_calls > 0
        assert result.invalid_calls > 0
        assert result.failing_example is None
        if result.kind == "read":
            assert result.valid_successes > 0, result.tool


def test_the_same_environment_and_seed_give_the_same_report(retail_package: Path) -> None:
    first = run_tool_tests(load_environment(open_package(retail_package)), seed=7)
    second = run_tool_tests(load_environment(open_package(retail_package)), seed=7)
    assert first == second


def test_drawn_calls_do_not_depend_on_the_literals_of_imported_modules(tmp_path: Path) -> None:
    # Hypothesis draws now and then from literals of local modules; the stage must not see them.
    env = _environment(RETAIL)
    known = ToolTester(env).known
    strategies = [valid_arguments(tool, known) for tool in env.toolgraph.tools]
    before = [draw_examples(strategy, count=60, seed_value=0) for strategy in strategies]
    words = [f"probe{i}" for i in range(300)]
    (tmp_path / "literals_probe.py").write_text(f"WORDS = {words!r}\nNUMBERS = {list(range(2, 600, 7))!r}\n")
    sys.path.insert(0, str(tmp_path))
    try:
        importlib.import_module("literals_probe")
        assert [draw_examples(strategy, count=60, seed_value=0) for strategy in strategies] == before
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("literals_probe", None)


def test_the_shares_of_the_tools_interleaved_are_the_whole_report(retail_report: ToolTestReport) -> None:
    # The later share first: a tool's result must not depend on which tools were tested before it.
    env = _environment(RETAIL)
    second, first = (run_tool_tests(env, seed=0, share=(index, 2)).results for index in (1, 0))
    assert len(first) == len(second) + len(env.tools) % 2
    interleaved = [result for pair in zip_longest(first, second) for result in pair if result is not None]
    assert interleaved == retail_report.results


def test_a_toolgraph_read_back_from_its_files_gives_the_same_report(retail_report: ToolTestReport) -> None:
    # On disk the schemas' keys are sorted; the calls drawn must not depend on key order.
    env = _environment(RETAIL)
    stored = ToolGraphArtifact(toolgraph=env.toolgraph, picture="").to_files()
    reread = Environment(env.blueprint, ToolGraphArtifact.from_files(stored).toolgraph, env.template, "")
    assert list(reread.tools["grant_store_credit"].parameters) != list(env.tools["grant_store_credit"].parameters)
    assert run_tool_tests(reread, seed=0) == retail_report


def test_a_write_tool_that_never_succeeds_on_the_seeded_data_is_admitted_with_a_note(tmp_path: Path) -> None:
    report = run_tool_tests(_retail_with(NOT_ON_THE_SEEDED_DATA, tmp_path), seed=0)
    refused = _result(report, "refund_negative_credit")
    assert refused.admitted
    assert refused.valid_successes == 0
    assert refused.valid_calls > 0
    assert refused.reason == f"admitted; no successful call found in {refused.valid_calls} tries"
    assert _result(report, "add_address").reason == ""
    assert _result(report, "add_address").valid_successes == _result(report, "add_address").valid_calls


def test_a_write_tool_whose_precondition_can_never_hold_is_excluded_naming_the_precondition(tmp_path: Path) -> None:
    # Admitted before, it failed on every call an agent made and no task could use it.
    report = run_tool_tests(_retail_with(NEVER_ALLOWED, tmp_path), seed=0)
    doomed = _result(report, "refund_negative_credit")
    assert not doomed.admitted
    assert (doomed.valid_successes, doomed.valid_calls > 0) == (0, True)
    assert doomed.reason == (
        f"none of {doomed.valid_calls} valid calls succeeded: precondition 'customer.store_credit < 0' "
        '("The store credit is not negative.") is false for every value its fields and arguments can take'
    )
    assert doomed.failing_example is not None
    assert set(doomed.failing_example) == {"customer_id"}
    assert "refund_negative_credit" not in report.admitted()


def test_a_write_tool_whose_precondition_never_evaluates_is_excluded_with_the_evaluation_error(
    tmp_path: Path,
) -> None:
    report = run_tool_tests(_retail_with(NEVER_EVALUATES, tmp_path), seed=0)
    doomed = _result(report, "refund_negative_credit")
    assert not doomed.admitted
    assert doomed.reason.startswith(
        f"none of {doomed.valid_calls} valid calls succeeded: precondition 'days_between(customer.email, today) > 0' "
        "fails to evaluate for every value its fields and arguments can take: cannot evaluate "
    )


def test_an_action_that_points_a_foreign_key_at_a_missing_record_is_excluded(
    tmp_path: Path, retail_report: ToolTestReport
) -> None:
    env = _retail_with(REASSIGN_TO_MISSING_CUSTOMER, tmp_path)
    report = run_tool_tests(env, seed=0)
    broken = _result(report, "reassign_order")
    assert not broken.admitted
    assert broken.reason == (
        "valid call returned constraint_violation: the change would leave a reference to a record that does not exist"
    )
    assert broken.failing_example is not None
    assert set(broken.failing_example) == {"order_id"}
    assert broken.failing_example["order_id"] in {row["order_id"] for row in Session(env).rows("order")}
    assert (broken.valid_calls, broken.valid_successes) == (1, 0)
    assert report.admitted() == retail_report.admitted()


def test_an_action_that_breaks_a_check_constraint_is_excluded(tmp_path: Path) -> None:
    report = run_tool_tests(_retail_with(NEGATIVE_TOTAL, tmp_path), seed=0)
    broken = _result(report, "apply_discount")
    assert not broken.admitted
    assert broken.reason == "valid call returned constraint_violation: a value is out of range (order_total_min)"
    assert broken.failing_example is not None
    assert set(broken.failing_example) == {"order_id"}


@pytest.mark.parametrize(
    ("returns", "reason"),
    [
        (
            "[customer]",
            "result does not match the return schema at 'customer/store_credit': 'lots' is not of type 'number'",
        ),
        ("[]", "after the call customer '{key}' has an invalid store_credit: 'lots' is not of type 'number'"),
    ],
    ids=["returned", "not-returned"],
)
def test_an_action_that_stores_text_in_a_money_column_is_excluded(tmp_path: Path, returns: str, reason: str) -> None:
    # SQLite keeps text in a REAL column and `'lots' >= 0` holds: past the load-time type check (which refuses
    # this blueprint), only the row schema catches it.
    env = _retail_with(TEXT_CREDIT.replace("[customer]", returns), tmp_path, checked=False)
    report = run_tool_tests(env, seed=0)
    broken = _result(report, "grant_lots_of_credit")
    assert not broken.admitted
    assert broken.failing_example is not None
    assert broken.reason == reason.format(key=broken.failing_example["customer_id"])


def test_valid_calls_reach_the_boundaries_and_carry_unicode_and_sql_metacharacters() -> None:
    env = _environment(RETAIL)
    known = ToolTester(env).known
    credits = draw_examples(valid_arguments(env.tools["grant_store_credit"], known), count=60, seed_value=0)
    amounts = {args["amount"] for args in credits}
    assert {0.01, 1000.0} <= amounts
    assert all(0.01 <= amount <= 1000 for amount in amounts)
    assert {args["customer_id"] for args in credits} <= set(known.keys["customer"])
    listings = draw_examples(valid_arguments(env.tools["list_customers"], known), count=60, seed_value=0)
    texts = [value for args in listings for value in args.values() if isinstance(value, str)]
    assert {"%", "_", "' OR '1'='1", "'; DROP TABLE customer; --"} & set(texts)
    assert any(not text.isascii() for text in texts)
    assert any(text in known.strings["customer", "email"] for text in texts)


def test_invalid_calls_break_one_rule_each() -> None:
    env = _environment(RETAIL)
    tester = ToolTester(env)
    customer = tester.known.keys["customer"][0]
    calls = invalid_arguments(env.tools["grant_store_credit"], tester.known)
    for expected in (
        {},
        {"amount": 1.0},
        {"customer_id": customer, "amount": 1.0, "unexpected_argument": 1},
        {"customer_id": "ZZZ-000000", "amount": 1.0},
        {"customer_id": "'; DROP TABLE customer; --", "amount": 1.0},
        {"customer_id": customer, "amount": "1.5"},
        {"customer_id": customer, "amount": None},
        {"customer_id": customer, "amount": 0.0},
        {"customer_id": customer, "amount": 1000.01},
    ):
        assert expected in calls
    assert any(len(args["customer_id"]) == 5000 for args in calls if isinstance(args.get("customer_id"), str))
    assert all(tester.expect(env.tools["grant_store_credit"], args).success == "never" for args in calls)


def test_a_different_seed_draws_different_valid_calls() -> None:
    env = _environment(RETAIL)
    strategy = valid_arguments(env.tools["update_email"], ToolTester(env).known)
    first = draw_examples(strategy, count=30, seed_value=0)
    assert draw_examples(strategy, count=30, seed_value=0) == first
    assert draw_examples(strategy, count=30, seed_value=1) != first


def test_a_tool_whose_argument_validation_is_off_is_excluded_by_its_invalid_calls() -> None:
    env = _environment(RETAIL)
    env.validators["grant_store_credit"] = Draft202012Validator({})
    report = run_tool_tests(env, seed=0)
    broken = _result(report, "grant_store_credit")
    assert not broken.admitted
    assert broken.reason.startswith("invalid call ")
    assert broken.invalid_calls == 1
    assert broken.failing_example is not None
    assert broken.failing_example.keys() < {"customer_id", "amount"}
    assert report.admitted() == set(env.tools) - {"grant_store_credit"}


def test_the_stage_builds_from_its_inputs_and_round_trips_through_its_files(tmp_path: Path) -> None:
    env = _retail_with(REASSIGN_TO_MISSING_CUSTOMER, tmp_path)
    inputs = ToolTestInputs(
        blueprint=BlueprintArtifact(blueprint=env.blueprint),
        toolgraph=ToolGraphArtifact(toolgraph=env.toolgraph, picture=""),
        state=StateArtifact(database=env.template, ddl=render_ddl(env.blueprint), rows={}),
    )
    artifact = STAGE.build(inputs, GenerateConfig(seed=3))
    assert isinstance(artifact, ToolTestArtifact)
    assert artifact.report == run_tool_tests(env, seed=3)
    assert _result(artifact.report, "reassign_order").failing_example is not None
    files = artifact.to_files()
    assert list(files) == ["tooltests.json"]
    assert ToolTestArtifact.from_files(files) == artifact
    assert build(inputs, GenerateConfig(seed=3)).to_files() == files
    assert (STAGE.name, STAGE.input_names, STAGE.config_fields) == (
        "tooltests",
        ("blueprint", "toolgraph", "state"),
        ("seed",),
    )


def test_numbers_bounded_on_one_side_only_are_drawn_without_overflow() -> None:
    env = _environment(RETAIL)
    tool = env.tools["grant_store_credit"]
    schema = tool.parameters["properties"]["amount"]
    half = {key: value for key, value in schema.items() if key != "maximum"}
    parameters = {**tool.parameters, "properties": {**tool.parameters["properties"], "amount": half}}
    unbounded = tool.model_copy(update={"parameters": parameters})
    drawn = draw_examples(valid_arguments(unbounded, ToolTester(env).known), count=40, seed_value=0)
    amounts = [args["amount"] for args in drawn]
    assert amounts and all(amount >= schema["minimum"] for amount in amounts)

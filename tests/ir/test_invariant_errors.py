"""A seed invariant that names something unknown fails with one located line and a suggestion."""

from __future__ import annotations

from pathlib import Path

from tests.blueprint_edits import edit, line_of
from tests.ir.test_blueprint_errors import load_error

RETURN_RULE = "    parents: {item: item_id, order: item.order_id}\n    require: \"order.status == 'delivered'"


def test_a_derived_field_the_entity_lacks_suggests_the_field(tmp_path: Path) -> None:
    text = edit("    derive: total\n", "    derive: totl\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "derive: totl")
    assert error.path == "invariants[7].derive"
    assert error.detail == "entity 'order' has no field 'totl'; did you mean 'total'?"


def test_an_aggregate_over_an_unknown_relation_suggests_the_relation(tmp_path: Path) -> None:
    text = edit("    aggregate: sum\n    over: order_items\n", "    aggregate: sum\n    over: order_item\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "over: order_item\n")
    assert error.path == "invariants[7].over"
    assert error.detail == "unknown relation 'order_item'; did you mean 'order_items'?"


def test_an_aggregate_over_a_relation_of_another_parent_names_the_relations_it_may_use(tmp_path: Path) -> None:
    text = edit("    aggregate: sum\n    over: order_items\n", "    aggregate: sum\n    over: payment_refunds\n")
    error = load_error(tmp_path, text)
    assert error.path == "invariants[7].over"
    assert error.detail == (
        "relation 'payment_refunds' has parent 'payment', not 'order'; relations with parent 'order': "
        "order_items, order_payment"
    )


def test_a_parent_through_an_unknown_alias_suggests_the_alias(tmp_path: Path) -> None:
    text = edit(RETURN_RULE, RETURN_RULE.replace("item.order_id", "itm.order_id"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "itm.order_id")
    assert error.path == "invariants[3].parents.order"
    assert error.detail == "unknown alias 'itm' in 'itm.order_id'; did you mean 'item'?"


def test_an_invariant_on_an_unknown_entity_suggests_the_entity(tmp_path: Path) -> None:
    text = edit("else goodwill.\n    entity: refund\n", "else goodwill.\n    entity: refnd\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "entity: refnd")
    assert error.path == "invariants[11].entity"
    assert error.detail == "unknown entity 'refnd'; did you mean 'refund'?"


def test_an_unknown_invariant_kind_suggests_the_kind(tmp_path: Path) -> None:
    text = edit("    present: delivered_on\n", "    presnt: delivered_on\n")
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "presnt: delivered_on")
    assert error.path == "invariants[1].presnt"
    assert error.detail == "unknown invariant kind 'presnt'; did you mean 'present'?"


def test_a_conditional_value_on_a_field_that_cannot_be_empty_says_to_make_it_nullable(tmp_path: Path) -> None:
    text = edit("    present: delivered_on\n", "    present: placed_on\n")
    error = load_error(tmp_path, text)
    assert error.path == "invariants[1].present"
    assert error.detail == "'order.placed_on' is not nullable, so it cannot be empty; add 'nullable: true'"


def test_an_unknown_field_in_a_rule_expression_suggests_the_field(tmp_path: Path) -> None:
    text = edit(RETURN_RULE, RETURN_RULE.replace("order.status ==", "order.state =="))
    error = load_error(tmp_path, text)
    assert error.path == "invariants[3].require"
    assert error.detail == "entity 'order' has no field 'state'; did you mean 'status'?"


def test_derived_values_that_read_each_other_fail_naming_the_cycle(tmp_path: Path) -> None:
    text = edit(
        "    of: refund.amount\n",
        "    of: refund.amount\n"
        "  - id: refund_is_whole_payment\n"
        "    text: A refund is the payment's refunded total.\n"
        "    entity: refund\n"
        "    parents: {payment: payment_id}\n"
        "    derive: amount\n"
        "    value: payment.refunded_total\n",
    )
    error = load_error(tmp_path, text)
    assert error.detail.startswith("derived values read each other in a cycle (")
    assert "payment.refunded_total -> refund.amount" in error.detail
    assert error.detail.endswith("; derive one of them from other fields")


REFUND_LINES = "lines: {aggregate: sum, over: order.order_items,"


def test_a_total_that_starts_at_no_row_suggests_the_row(tmp_path: Path) -> None:
    text = edit(REFUND_LINES, REFUND_LINES.replace("order.order_items", "ordr.order_items"))
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "ordr.order_items")
    assert error.path == "invariants[12].totals.lines.over"
    assert error.detail == "'ordr.order_items' starts at 'ordr', which names no row; did you mean 'order'?"


def test_a_total_down_a_relation_of_another_parent_names_the_relations_it_may_follow(tmp_path: Path) -> None:
    text = edit(REFUND_LINES, REFUND_LINES.replace("order.order_items", "order.payment_refunds"))
    error = load_error(tmp_path, text)
    assert error.path == "invariants[12].totals.lines.over"
    assert error.detail == (
        "relation 'payment_refunds' has parent 'payment', not 'order'; relations with parent 'order': "
        "order_items, order_payment"
    )


def test_a_total_named_like_a_row_says_to_rename_it(tmp_path: Path) -> None:
    text = edit("      lines: {aggregate: sum", "      payment: {aggregate: sum")
    error = load_error(tmp_path, text)
    assert error.path == "invariants[12].totals.payment"
    assert error.detail == "the total 'payment' is named like a row or the clock; rename it"


def test_a_child_count_above_one_over_a_one_to_one_relation_says_one(tmp_path: Path) -> None:
    text = edit(
        "    at_least: 1\n    over: order_items\n    where: \"order_item.status != 'cancelled'\"\n",
        "    at_least: 2\n    over: order_payment\n",
    )
    error = load_error(tmp_path, text)
    assert error.path == "invariants[8].at_least"
    assert error.detail == "relation 'order_payment' is one_to_one, so a row has at most one child; say 1"

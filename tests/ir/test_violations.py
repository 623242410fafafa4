"""Counting invariant violations: a hand-broken state is caught with the invariant's id and a row key."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from envforge.ir.loading import load_blueprint
from envforge.ir.violations import count_state_violations, describe_violations
from envforge.stages.ontology.build import build_ontology
from envforge.stages.state.build import build_state
from tests.blueprint_edits import RETAIL


def _retail_state(edits: list[str]) -> bytes:
    blueprint = load_blueprint(RETAIL)
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=300, seed=0)
    connection = sqlite3.connect(":memory:")
    connection.deserialize(database)
    for statement in edits:
        connection.execute(statement)
    connection.commit()
    return connection.serialize()


def _first(database: bytes, query: str) -> str:
    connection = sqlite3.connect(":memory:")
    connection.deserialize(database)
    return str(connection.execute(query).fetchone()[0])


def test_a_total_off_from_its_lines_and_a_stray_delivery_date_are_each_counted_with_their_row() -> None:
    clean = _retail_state([])
    delivered = _first(clean, "SELECT order_id FROM \"order\" WHERE status = 'delivered' ORDER BY order_id")
    pending = _first(clean, "SELECT order_id FROM \"order\" WHERE status = 'pending' ORDER BY order_id")
    broken = _retail_state(
        [
            f"UPDATE \"order\" SET total = total + 5 WHERE order_id = '{delivered}'",
            f"UPDATE \"order\" SET delivered_on = '2026-03-01' WHERE order_id = '{pending}'",
        ]
    )

    counts = {count.id: count for count in count_state_violations(load_blueprint(RETAIL), broken)}

    assert (counts["order_total_is_sum_of_lines"].violations, counts["order_total_is_sum_of_lines"].example) == (
        1,
        delivered,
    )
    assert (
        counts["delivery_date_only_when_delivered"].violations,
        counts["delivery_date_only_when_delivered"].example,
    ) == (
        1,
        pending,
    )
    # A pending order is at most 7 days old, so a delivery on 1 March is also before it was placed; the payment
    # captured the order's total, so it no longer matches the raised one.
    assert [count.id for count in counts.values() if count.violations] == [
        "delivery_date_only_when_delivered",
        "delivered_after_placed",
        "order_total_is_sum_of_lines",
        "payment_is_what_the_lines_cost",
    ]


def test_a_violation_is_described_in_one_line_with_id_count_example_and_text() -> None:
    clean = _retail_state([])
    payment = _first(clean, "SELECT payment_id FROM payment ORDER BY payment_id")
    broken = _retail_state([f"UPDATE payment SET refunded_total = refunded_total + 1 WHERE payment_id = '{payment}'"])

    lines = describe_violations(count_state_violations(load_blueprint(RETAIL), broken))

    assert lines[0] == (
        f"payment_refunded_total_is_sum_of_refunds: 1 payment row breaks it (e.g. {payment}): "
        "A payment's refunded total is the sum of its refunds."
    )


def test_an_empty_date_a_bound_is_built_from_is_ignored_not_a_crash() -> None:
    clean = _retail_state([])
    order = _first(clean, "SELECT order_id FROM \"order\" WHERE status = 'delivered' ORDER BY order_id")
    broken = _retail_state([f"UPDATE \"order\" SET status = 'shipped', delivered_on = NULL WHERE order_id = '{order}'"])

    counts = {count.id: count.violations for count in count_state_violations(load_blueprint(RETAIL), broken)}

    assert counts["delivered_after_placed"] == 0
    assert counts["delivery_date_only_when_delivered"] == 0


def test_the_shipped_retail_state_file_reads_back_with_no_violation(tmp_path: Path) -> None:
    path = tmp_path / "state.sqlite"
    path.write_bytes(_retail_state([]))

    counts = count_state_violations(load_blueprint(RETAIL), path.read_bytes())

    assert len(counts) == 17
    assert [count.id for count in counts if count.violations] == []

"""The state stage satisfies every declared seed invariant, or says which one it cannot and how to fix it."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from envforge.errors import BlueprintError
from envforge.ir.loading import load_blueprint, load_blueprint_text
from envforge.ir.violations import count_state_violations
from envforge.pipeline.dag import DEFAULT_ROWS
from envforge.stages.ontology.build import build_ontology
from envforge.stages.state.build import build_state
from envforge.stages.state.seed import seed_rows
from tests.blueprint_edits import RETAIL, edit
from tests.conftest import BLUEPRINTS

PRODUCT_RULE = """  - id: only_free_products
    text: Lines are only for free products.
    entity: order_item
    parents: {product: product_id}
    require: product.price < 0
    seed_by: product_id
"""
STATUS_RULE = """  - id: orders_in_two_states
    text: Every order is both pending and delivered.
    entity: order
    require: "order.status == 'pending' and order.status == 'delivered'"
    seed_by: status
"""


@pytest.mark.parametrize("rows", [DEFAULT_ROWS, 200])
@pytest.mark.parametrize("path", BLUEPRINTS, ids=lambda path: path.stem)
def test_every_shipped_blueprint_seeds_a_state_that_breaks_none_of_its_invariants(path: Path, rows: int) -> None:
    blueprint = load_blueprint(path)
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=rows, seed=0)

    counts = count_state_violations(blueprint, database)

    assert len(counts) >= 6
    assert {count.id: count.violations for count in counts if count.violations} == {}


def test_retail_totals_delivery_dates_and_returns_agree_when_read_with_sql() -> None:
    blueprint = load_blueprint(RETAIL)
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=DEFAULT_ROWS, seed=0)
    connection = sqlite3.connect(":memory:")
    connection.deserialize(database)

    def count(query: str) -> int:
        return int(connection.execute(query).fetchone()[0])

    off_totals = count(
        'SELECT count(*) FROM "order" o WHERE abs(o.total - (SELECT coalesce(sum(unit_price * quantity), 0) '
        "FROM order_item i WHERE i.order_id = o.order_id AND i.status != 'cancelled')) > 0.005"
    )
    stray_dates = count("SELECT count(*) FROM \"order\" WHERE (delivered_on IS NULL) != (status != 'delivered')")
    early = count('SELECT count(*) FROM "order" WHERE delivered_on < placed_on')
    returns_on_undelivered = count(
        'SELECT count(*) FROM return_request r JOIN order_item i USING (item_id) JOIN "order" o USING (order_id) '
        "WHERE o.status != 'delivered'"
    )
    assert (off_totals, stray_dates, early, returns_on_undelivered) == (0, 0, 0, 0)
    assert count("SELECT count(*) FROM \"order\" WHERE status = 'delivered'") > 0
    assert count("SELECT count(*) FROM return_request WHERE status = 'requested'") > 0


def _shipped(domain: str) -> sqlite3.Connection:
    blueprint = load_blueprint(RETAIL.parent / f"{domain}.yaml")
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=DEFAULT_ROWS, seed=0)
    connection = sqlite3.connect(":memory:")
    connection.deserialize(database)
    return connection


def _counts(connection: sqlite3.Connection, **queries: str) -> dict[str, int]:
    return {name: int(connection.execute(query).fetchone()[0]) for name, query in queries.items()}


def test_retail_orders_have_lines_and_each_refund_is_for_what_its_order_gave_back_when_read_with_sql() -> None:
    connection = _shipped("retail")
    lines = "SELECT coalesce(sum(unit_price * quantity), 0) FROM order_item i WHERE i.order_id = p.order_id"
    refunds = 'refund r JOIN payment p USING (payment_id) JOIN "order" o USING (order_id)'
    counts = _counts(
        connection,
        orders_without_lines='SELECT count(*) FROM "order" o WHERE NOT EXISTS (SELECT 1 FROM order_item i '
        "WHERE i.order_id = o.order_id AND i.status != 'cancelled')",
        returned_refunds_off_their_lines=f"SELECT count(*) FROM {refunds} WHERE r.reason = 'item_returned' "
        f"AND abs(r.amount - ({lines} AND i.status = 'returned')) > 0.005",
        cancelled_refunds_off_their_lines=f"SELECT count(*) FROM {refunds} WHERE r.reason = 'item_cancelled' "
        f"AND abs(r.amount - ({lines} AND i.status = 'cancelled')) > 0.005",
        cancelled_orders_not_refunded_in_full=f"SELECT count(*) FROM {refunds} WHERE (o.status = 'cancelled') "
        "!= (r.reason = 'order_cancelled') OR (o.status = 'cancelled' AND abs(r.amount - o.total) > 0.005)",
        goodwill_where_lines_were_given_back=f"SELECT count(*) FROM {refunds} WHERE r.reason = 'goodwill' AND "
        "EXISTS (SELECT 1 FROM order_item i WHERE i.order_id = o.order_id AND i.status IN ('cancelled', 'returned'))",
        payments_refunded_beyond_their_amount="SELECT count(*) FROM payment WHERE refunded_total > amount + 0.005",
    )
    assert counts == dict.fromkeys(counts, 0)
    given_back = "SELECT count(*) FROM refund WHERE reason IN ('item_returned', 'item_cancelled', 'order_cancelled')"
    assert _counts(connection, refunds=given_back)["refunds"] > 0


def test_clinic_slots_hold_one_visit_and_balances_equal_their_bills_when_read_with_sql() -> None:
    connection = _shipped("clinic")
    visits = "SELECT count(*) FROM appointment a WHERE a.slot_id = s.slot_id AND a.status != 'cancelled'"
    owed = (
        "SELECT coalesce(sum(i.amount - i.amount_paid), 0) FROM invoice i JOIN appointment a USING (appointment_id) "
        "WHERE a.patient_id = p.patient_id"
    )
    fees = "SELECT coalesce(sum(cancellation_fee), 0) FROM appointment a WHERE a.patient_id = p.patient_id"
    counts = _counts(
        connection,
        double_booked=f"SELECT count(*) FROM slot s WHERE ({visits}) > 1",
        booked_yet_empty_or_free_yet_taken=f"SELECT count(*) FROM slot s WHERE (status = 'booked') != (({visits}) > 0)",
        balances_off_their_bills=f"SELECT count(*) FROM patient p WHERE abs(balance_due - ({owed}) - ({fees})) > 0.005",
    )
    assert counts == dict.fromkeys(counts, 0)
    assert _counts(connection, owing="SELECT count(*) FROM patient WHERE balance_due > 0")["owing"] > 0


def test_library_balances_are_unpaid_fines_and_child_cards_go_to_children_when_read_with_sql() -> None:
    connection = _shipped("library")
    unpaid = (
        "SELECT coalesce(sum(f.amount), 0) FROM fine f JOIN loan l USING (loan_id) "
        "WHERE l.member_id = m.member_id AND f.status = 'unpaid'"
    )
    counts = _counts(
        connection,
        balances_off_their_fines=f"SELECT count(*) FROM member m WHERE abs(balance_owed - ({unpaid})) > 0.005",
        cards_off_their_age="SELECT count(*) FROM member WHERE (membership_type = 'child') != "
        "(date_of_birth > date('2026-09-08', '-18 years'))",
    )
    assert counts == dict.fromkeys(counts, 0)


def test_a_child_count_the_children_cannot_cover_fails_in_one_line_naming_the_invariant_and_the_fix() -> None:
    text = edit("    at_least: 1\n    over: order_items\n", "    at_least: 30\n    over: order_items\n")
    blueprint = load_blueprint_text(text, "retail.yaml")

    with pytest.raises(BlueprintError) as info:
        build_state(blueprint, build_ontology(blueprint), rows=300, seed=0)

    assert str(info.value).startswith("invariant 'order_has_lines' cannot hold for order ORD-")
    assert str(info.value).endswith(
        ": no order_item row can move to it without leaving another order short or breaking a rule of order_item; "
        "seed more order_item rows ('rows'), or lower 'at_least'"
    )


@pytest.mark.parametrize(
    ("rule", "entity", "message"),
    [
        (
            PRODUCT_RULE,
            "order_item",
            "invariant 'only_free_products' cannot hold for order_item {key}: no product row satisfies it; seed more "
            "product rows for which it holds (their generators and 'rows'), or relax its 'require'",
        ),
        (
            STATUS_RULE,
            "order",
            "invariant 'orders_in_two_states' cannot hold for order {key}: 200 draws of 'status' never satisfied it; let "
            "the generator of 'order.status' make values for which it holds, or relax its 'require'",
        ),
    ],
    ids=["no_parent_fits", "no_draw_fits"],
)
def test_an_unsatisfiable_rule_fails_in_one_line_naming_the_invariant_its_first_row_and_the_fix(
    rule: str, entity: str, message: str
) -> None:
    blueprint = load_blueprint_text(edit("\npersonas:\n", rule + "\npersonas:\n"), "retail.yaml")
    ontology = build_ontology(blueprint)
    # Keys come from their own stream, so the plain blueprint names the same first row.
    first = seed_rows(load_blueprint(RETAIL), ontology, rows=300, seed=0)[entity][0]

    with pytest.raises(BlueprintError) as info:
        build_state(blueprint, ontology, rows=300, seed=0)

    assert str(info.value) == message.format(key=first[ontology.entity(entity).key])


def test_seeding_with_invariants_gives_the_same_bytes_for_the_same_seed() -> None:
    blueprint = load_blueprint(RETAIL)
    ontology = build_ontology(blueprint)

    first, _ = build_state(blueprint, ontology, rows=800, seed=5)
    second, _ = build_state(blueprint, ontology, rows=800, seed=5)

    assert first == second

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


@pytest.mark.parametrize("path", BLUEPRINTS, ids=lambda path: path.stem)
def test_every_shipped_blueprint_seeds_a_state_that_breaks_none_of_its_invariants(path: Path) -> None:
    blueprint = load_blueprint(path)
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=DEFAULT_ROWS, seed=0)

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

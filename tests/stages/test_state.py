"""The seeded initial state: foreign-key consistent, realistic, deterministic, and scalable."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from envforge.ir.loading import load_blueprint
from envforge.pipeline.dag import DEFAULT_ROWS
from envforge.stages.ontology.build import build_ontology
from envforge.stages.state.build import build_state
from tests.conftest import BLUEPRINTS


def _connect(database: bytes) -> sqlite3.Connection:
    connection = sqlite3.connect(":memory:")
    connection.deserialize(database)
    return connection


@pytest.mark.parametrize("path", BLUEPRINTS, ids=lambda path: path.stem)
def test_the_default_state_has_enough_rows_and_consistent_foreign_keys(path: Path) -> None:
    blueprint = load_blueprint(path)
    ontology = build_ontology(blueprint)
    database, rows = build_state(blueprint, ontology, rows=DEFAULT_ROWS, seed=0)
    assert sum(rows.values()) >= DEFAULT_ROWS * 0.95
    assert all(count >= 1 for count in rows.values())
    connection = _connect(database)
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    for entity in blueprint.entities:
        for field in entity.fields:
            if field.unique or field.type == "id":
                distinct, total = connection.execute(
                    f'SELECT count(DISTINCT "{field.name}"), count("{field.name}") FROM "{entity.name}"'
                ).fetchone()
                assert distinct == total, f"{entity.name}.{field.name} repeats values"


def test_copy_generators_copy_the_parents_value() -> None:
    blueprint = load_blueprint(Path("blueprints/retail.yaml"))
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=500, seed=3)
    mismatches = (
        _connect(database)
        .execute(
            "SELECT count(*) FROM order_item JOIN product USING (product_id) WHERE order_item.unit_price != product.price"
        )
        .fetchone()[0]
    )
    assert mismatches == 0


def test_one_to_one_children_never_share_a_parent() -> None:
    blueprint = load_blueprint(Path("blueprints/retail.yaml"))
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=2000, seed=0)
    shared = _connect(database).execute(
        "SELECT count(*) FROM (SELECT order_id FROM payment GROUP BY order_id HAVING count(*) > 1)"
    )
    assert shared.fetchone()[0] == 0


def test_faker_values_look_real_and_dates_respect_the_clock() -> None:
    blueprint = load_blueprint(Path("blueprints/retail.yaml"))
    connection = _connect(build_state(blueprint, build_ontology(blueprint), rows=500, seed=0)[0])
    emails = [row[0] for row in connection.execute("SELECT email FROM customer")]
    assert all("@" in email and "." in email.split("@")[1] for email in emails)
    latest = connection.execute('SELECT max(placed_on) FROM "order"').fetchone()[0]
    assert latest <= blueprint.clock.date().isoformat()


def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_data() -> None:
    blueprint = load_blueprint(Path("blueprints/retail.yaml"))
    ontology = build_ontology(blueprint)
    assert build_state(blueprint, ontology, rows=500, seed=5) == build_state(blueprint, ontology, rows=500, seed=5)
    assert (
        build_state(blueprint, ontology, rows=500, seed=5)[0] != build_state(blueprint, ontology, rows=500, seed=6)[0]
    )


@pytest.mark.slow
def test_the_rows_knob_reaches_one_hundred_thousand_rows() -> None:
    blueprint = load_blueprint(Path("blueprints/retail.yaml"))
    database, rows = build_state(blueprint, build_ontology(blueprint), rows=100_000, seed=0)
    assert sum(rows.values()) >= 99_000
    connection = _connect(database)
    assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
    assert connection.execute('SELECT count(*) FROM "order"').fetchone()[0] == rows["order"]

"""Declared catalogue rows: seeded first to last with exactly their values at any row count, the fields they leave
out drawn, and an invariant that would change a declared value an error rather than a silent edit."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from envforge.errors import BlueprintError
from envforge.ir.blueprint import Blueprint
from envforge.ir.loading import load_blueprint, load_blueprint_text
from envforge.ir.violations import count_state_violations
from envforge.stages.ontology.build import build_ontology
from envforge.stages.state.build import build_state
from tests.blueprint_edits import RETAIL_TEXT, edit
from tests.cli.test_bad_input import run_main
from tests.conftest import REPO

CATEGORY_WORDS = {
    "kitchen": ("Mug", "Knife", "Pan", "Press", "Cutting Board", "Teapot", "Espresso", "Mixing", "Apron", "Salad"),
    "bedroom": ("Duvet", "Sheet", "Down Pillow", "Bedside", "Pillowcase", "Weighted Blanket"),
    "bathroom": ("Towel", "Bath", "Shower", "Soap", "Toothbrush"),
}
"""Words that put a product in one category whatever the rest of its name says."""

NO_STOCK_RULE = """invariants:
  - id: stocked_or_discontinued
    text: A product out of stock is discontinued.
    entity: product
    require: "product.stock > 0 or product.status == 'discontinued'"
    seed_by: status
"""


def _rows(database: bytes, entity: str, blueprint: Blueprint) -> list[dict[str, Any]]:
    """The entity's rows in key order, which is the catalogue's order (keys are drawn, then sorted)."""
    connection = sqlite3.connect(":memory:")
    connection.deserialize(database)
    connection.row_factory = sqlite3.Row
    key = next(field.name for field in blueprint.entity(entity).fields if field.type == "id")
    return [dict(row) for row in connection.execute(f'SELECT * FROM "{entity}" ORDER BY "{key}"')]


@pytest.mark.parametrize(("domain", "entity"), [("library", "book"), ("clinic", "doctor"), ("clinic", "medication")])
def test_declared_rows_are_seeded_first_to_last_with_exactly_their_values(domain: str, entity: str) -> None:
    blueprint = load_blueprint(REPO / "blueprints" / f"{domain}.yaml")
    database, counts = build_state(blueprint, build_ontology(blueprint), rows=600, seed=4)
    declared = blueprint.entity(entity).catalogue
    seeded = _rows(database, entity, blueprint)
    assert counts[entity] == len(seeded) == len(declared)
    assert [{name: row[name] for name in values} for row, values in zip(seeded, declared, strict=True)] == [
        {name: int(value) if isinstance(value, bool) else value for name, value in values.items()}
        for values in declared
    ]


def test_fields_a_row_leaves_out_are_drawn_and_a_unique_one_never_repeats() -> None:
    blueprint = load_blueprint(REPO / "blueprints" / "library.yaml")
    database, _ = build_state(blueprint, build_ontology(blueprint), rows=600, seed=4)
    isbns = [row["isbn"] for row in _rows(database, "book", blueprint)]
    assert len(set(isbns)) == len(isbns) == 60
    assert all(isbn.startswith("978-") and len(isbn) == 17 for isbn in isbns)


@pytest.mark.parametrize("rows", [50, 1000, 20_000])
def test_a_catalogue_has_its_own_rows_at_any_row_count_and_the_others_share_the_rows_asked(rows: int) -> None:
    blueprint = load_blueprint(REPO / "blueprints" / "retail.yaml")
    _, counts = build_state(blueprint, build_ontology(blueprint), rows=rows, seed=0)
    assert counts["product"] == 40
    assert abs(sum(counts.values()) - 40 - rows) <= len(counts)


def test_a_catalogue_longer_than_its_one_to_one_parent_can_hold_says_so() -> None:
    text = edit(
        "    description: The payment that settles an order.\n    rows: 150\n",
        "    description: The payment that settles an order.\n    catalogue:\n"
        + "".join(f"      - {{method: {method}}}\n" for method in ["card", "paypal", "card"]),
    )
    blueprint = load_blueprint_text(text, "retail.yaml")
    with pytest.raises(BlueprintError) as info:
        build_state(blueprint, build_ontology(blueprint), rows=10, seed=0)
    assert str(info.value) == (
        "entity 'payment' declares 3 catalogue rows, but relation 'order_payment' gives each its own order and "
        "10 rows make only 2; seed more rows or declare fewer"
    )


def test_an_invariant_that_would_change_a_declared_value_fails_generate_with_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = edit("invariants:\n", NO_STOCK_RULE, RETAIL_TEXT)
    text = edit(
        "{name: Chef Knife, category: kitchen, price: 89.00}",
        "{name: Chef Knife, category: kitchen, price: 89.00, stock: 0, status: active}",
        text,
    )
    path = tmp_path / "retail.yaml"
    path.write_text(text, encoding="utf-8")
    code, line = run_main(capsys, "generate", str(path), "-o", str(tmp_path / "out"), "--rows", "300")
    assert code == 2
    assert line == (
        "entities[2].catalogue[1].status: catalogue row 2 of 'product' declares status 'active', but invariant "
        "'stocked_or_discontinued' does not hold for it and the seed made it 'discontinued'; declare a value for "
        "which the invariant holds"
    )
    assert not (tmp_path / "out" / "retail").exists()


def test_the_retail_package_has_no_product_whose_category_contradicts_its_name(packages: dict[str, Path]) -> None:
    package = packages["retail"]
    blueprint = load_blueprint(REPO / "blueprints" / "retail.yaml")
    database = (package / "state.sqlite").read_bytes()
    products = _rows(database, "product", blueprint)
    assert len(products) == 40
    assert len({product["name"] for product in products}) == 40
    contradictions = [
        (product["name"], product["category"])
        for product in products
        for category, words in CATEGORY_WORDS.items()
        if any(word in product["name"] for word in words) and product["category"] != category
    ]
    assert contradictions == []
    assert {product["category"] for product in products} == {"kitchen", "bedroom", "bathroom", "living", "decor"}
    assert all(10 <= product["price"] <= 200 for product in products)
    assert {
        count.id: count.violations for count in count_state_violations(blueprint, database) if count.violations
    } == {}

"""A declared catalogue row that envforge could not seed as written fails `envforge lint` with one located line.

Each case edits one row of a shipped catalogue (retail's products, library's books) or declares one where it
cannot be, and runs the real command: exit code 2 and `file:line: path: what; how to fix`.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.ir.loading import load_blueprint_text
from tests.blueprint_edits import LIBRARY_TEXT, RETAIL_TEXT, edit, line_of
from tests.cli.test_bad_input import run_main

MUG = "{name: Ceramic Mug, category: kitchen, price: 14.00}"
KNIFE = "{name: Chef Knife, category: kitchen, price: 89.00}"
SALT = "{title: The Salt Orchard, author: Maren Holloway,"
RIVERS = "{title: A House of Quiet Rivers, author: Celia Marchetti,"
PRODUCT_HEAD = "  - name: product\n    description: An item the shop sells.\n"
PAYMENT_HEAD = "    description: The payment that settles an order.\n    rows: 150\n"
CUSTOMER_ROWS = "    description: A person with a shop account.\n    rows: 60\n"

CASES = {
    "unknown field": (
        RETAIL_TEXT,
        MUG,
        "{name: Ceramic Mug, colour: white, category: kitchen, price: 14.00}",
        "colour: white",
        "entities[2].catalogue[0].colour",
        "entity 'product' has no field 'colour'; its fields are product_id, name, category, price, stock, status",
    ),
    "text where a number belongs": (
        RETAIL_TEXT,
        MUG,
        "{name: Ceramic Mug, category: kitchen, price: fourteen}",
        "price: fourteen",
        "entities[2].catalogue[0].price",
        "'price' is a number, got 'fourteen'; write it without quotes",
    ),
    "a number where text belongs": (
        LIBRARY_TEXT,
        SALT,
        "{title: 1984, author: Maren Holloway,",
        "title: 1984",
        "entities[2].catalogue[0].title",
        "'title' is text, got 1984; quote the value",
    ),
    "a value outside the enum": (
        RETAIL_TEXT,
        MUG,
        "{name: Ceramic Mug, category: kitchn, price: 14.00}",
        "category: kitchn",
        "entities[2].catalogue[0].category",
        "'kitchn' is not one of the values of 'category' (kitchen, bedroom, bathroom, living, decor); "
        "did you mean 'kitchen'?",
    ),
    "a value below the minimum": (
        RETAIL_TEXT,
        MUG,
        "{name: Ceramic Mug, category: kitchen, price: -14.00}",
        "price: -14.00",
        "entities[2].catalogue[0].price",
        "-14.0 is below the minimum 0 of 'price'; give a value in range",
    ),
    "a value above the maximum": (
        LIBRARY_TEXT,
        f"{SALT} genre: fiction, publication_year: 2019,",
        f"{SALT} genre: fiction, publication_year: 2031,",
        "publication_year: 2031",
        "entities[2].catalogue[0].publication_year",
        "2031 is above the maximum 2026 of 'publication_year'; give a value in range",
    ),
    "money past the cent": (
        RETAIL_TEXT,
        MUG,
        "{name: Ceramic Mug, category: kitchen, price: 14.005}",
        "price: 14.005",
        "entities[2].catalogue[0].price",
        "'price' is money with two decimal places, got 14.005; round it to cents",
    ),
    "an empty value of a field that is not nullable": (
        RETAIL_TEXT,
        MUG,
        "{name: Ceramic Mug, category: kitchen, price: null}",
        "price: null",
        "entities[2].catalogue[0].price",
        "'price' is not nullable; give it a value, or leave it out to have one generated",
    ),
    "a date that does not exist": (
        RETAIL_TEXT,
        MUG,
        "{name: Ceramic Mug, category: kitchen, price: 14.00, stock: 2026-02-30}",
        "stock: 2026-02-30",
        "entities[2].catalogue[0].stock",
        "'2026-02-30' reads as a date, but no such date exists; fix it, or quote it to keep it as text",
    ),
    "a declared key": (
        RETAIL_TEXT,
        MUG,
        "{product_id: PRD-100001, name: Ceramic Mug, category: kitchen, price: 14.00}",
        "product_id: PRD-100001",
        "entities[2].catalogue[0].product_id",
        "'product_id' is the key of 'product', which envforge generates; remove it from the row",
    ),
    "a declared ref": (
        RETAIL_TEXT,
        PAYMENT_HEAD,
        "    description: The payment that settles an order.\n    catalogue:\n      - {order_id: ORD-100001}\n",
        "order_id: ORD-100001",
        "entities[5].catalogue[0].order_id",
        "'order_id' holds another row's generated key, which a catalogue row cannot name; remove it and it is "
        "drawn as for any row",
    ),
    "a derived value": (
        RETAIL_TEXT,
        PAYMENT_HEAD,
        "    description: The payment that settles an order.\n    catalogue:\n      - {refunded_total: 0}\n",
        "refunded_total: 0",
        "entities[5].catalogue[0].refunded_total",
        "'refunded_total' is derived by invariant 'payment_refunded_total_is_sum_of_refunds'; remove it from the row",
    ),
    "a repeated unique value": (
        LIBRARY_TEXT,
        RIVERS,
        "{title: A House of Quiet Rivers, author: Celia Marchetti, isbn: 978-0-0000-0000-1,",
        "Celia Marchetti, isbn",
        "entities[2].catalogue[1].isbn",
        "catalogue row 2 repeats '978-0-0000-0000-1', the 'isbn' of row 1 on line {first}, but 'book.isbn' is "
        "unique; give each row its own isbn",
    ),
    "rows that disagree with the catalogue": (
        RETAIL_TEXT,
        PRODUCT_HEAD,
        f"{PRODUCT_HEAD}    rows: 12\n",
        "rows: 12",
        "entities[2].rows",
        "entity 'product' declares 40 catalogue rows but 'rows: 12'; a catalogue is every row of its entity at any "
        "row count, so remove 'rows' or set it to 40",
    ),
    "a catalogue of people": (
        RETAIL_TEXT,
        CUSTOMER_ROWS,
        "    description: A person with a shop account.\n    catalogue:\n      - {first_name: Ada}\n",
        "    catalogue:\n      - {first_name: Ada}",
        "entities[0].catalogue",
        "entity 'customer' is the person entity, whose rows are the people tasks serve, not a catalogue; declare "
        "catalogue rows on an entity people pick from, or remove 'catalogue'",
    ),
}


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.replace(" ", "_"))
def test_a_catalogue_row_envforge_cannot_seed_as_written_fails_lint_with_one_located_line(
    case: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, old, new, needle, where, message = CASES[case]
    broken = edit(old, new, text)
    if case == "a repeated unique value":
        broken = edit(SALT, "{title: The Salt Orchard, author: Maren Holloway, isbn: 978-0-0000-0000-1,", broken)
        message = message.format(first=line_of(broken, "Holloway, isbn"))
    path = tmp_path / "bad.yaml"
    path.write_text(broken, encoding="utf-8")
    code, line = run_main(capsys, "lint", str(path), "--no-coverage")
    assert code == 2
    assert line == f"{path}:{line_of(broken, needle)}: {where}: {message}"


def test_a_date_written_unquoted_in_a_catalogue_row_is_kept_as_its_iso_text() -> None:
    text = edit(
        "    description: A purchase by a customer.\n    rows: 150\n",
        "    description: A purchase by a customer.\n    catalogue:\n      - {placed_on: 2026-03-01}\n",
    )
    assert load_blueprint_text(text, "retail.yaml").entity("order").catalogue == [{"placed_on": "2026-03-01"}]

"""The rows a run seeds are known as its blueprint loads: `--rows` split by the entities' weights, plus each
catalogue's declared rows; a run over the cap is refused then, and `--max-rows` moves the cap."""

from __future__ import annotations

import re

import pytest

from envforge.errors import UserInputError
from envforge.ir.loading import load_blueprint, load_blueprint_text
from envforge.ir.row_budget import DEFAULT_MAX_ROWS, check_row_budget, planned_rows
from tests.blueprint_edits import RETAIL, RETAIL_TEXT


def test_a_million_rows_on_every_entity_are_weights_so_the_run_seeds_its_own_row_count() -> None:
    text, edited = re.subn(r"^    rows: \d+$", "    rows: 1000000", RETAIL_TEXT, flags=re.MULTILINE)
    assert edited == 7
    blueprint = load_blueprint_text(text, "every_entity_a_million.yaml")
    planned = planned_rows(blueprint, 1000)
    # Seven equal weights share the 1,000 rows; the catalogue keeps its 40 products.
    assert planned == {entity.name: 143 for entity in blueprint.entities} | {"product": 40}
    check_row_budget(blueprint, 1000, DEFAULT_MAX_ROWS, "every_entity_a_million.yaml")


def test_the_cap_counts_the_catalogue_and_max_rows_moves_it_to_exactly_the_total() -> None:
    blueprint = load_blueprint(RETAIL)
    total = sum(planned_rows(blueprint, 2_400_000).values())
    assert total == 2_400_040
    check_row_budget(blueprint, 2_400_000, total, "retail.yaml")
    with pytest.raises(UserInputError, match=r"above the cap of 2,400,039 rows; .* pass --max-rows 2400040 "):
        check_row_budget(blueprint, 2_400_000, total - 1, "retail.yaml")

"""A persona's `fits`: an expression over the person's row, checked at load like any other, and renamed with the person
when blueprints are fused; `years_between` gives the age it usually reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.ir.expressions import compile_expression
from envforge.ir.loading import load_blueprint
from tests.blueprint_edits import edit, line_of
from tests.conftest import REPO
from tests.ir.test_blueprint_errors import load_error

RETIREE = 'fits: "customer.joined_on >= add_days(today, -365)"'


@pytest.mark.parametrize(
    ("today", "age"),
    [("2026-05-10", 25), ("2026-05-11", 26), ("2026-12-31", 26), ("2001-05-10", 0)],
)
def test_years_between_counts_whole_years_as_an_age_does(today: str, age: int) -> None:
    assert compile_expression("years_between('2000-05-11', today)")({"today": today}) == age


def test_a_persona_condition_on_a_field_the_person_lacks_suggests_the_field(tmp_path: Path) -> None:
    text = edit(RETIREE, 'fits: "customer.joined >= add_days(today, -365)"')
    error = load_error(tmp_path, text)
    assert error.line == line_of(text, "customer.joined >=")
    assert error.path == "personas[1].fits"
    assert error.detail == "entity 'customer' has no field 'joined'; did you mean 'joined_on'?"


def test_a_persona_condition_comparing_an_age_with_text_is_refused_naming_the_persona(tmp_path: Path) -> None:
    text = edit(RETIREE, "fits: \"years_between(customer.joined_on, today) < '2'\"")
    error = load_error(tmp_path, text)
    assert error.path == "personas[1].fits"
    assert error.detail.startswith(
        "persona 'careful_retiree' compares integer 'years_between(customer.joined_on, today)'"
    )


def test_a_persona_condition_reads_only_the_person_row_and_the_clock(tmp_path: Path) -> None:
    text = edit(RETIREE, "fits: \"order.status == 'pending'\"")
    error = load_error(tmp_path, text)
    assert error.path == "personas[1].fits"
    assert error.detail.startswith("unknown name 'order' in \"order.status == 'pending'\"; ")


def test_a_fused_world_reads_each_domains_personas_on_that_domains_record_of_the_person() -> None:
    fused = load_blueprint(REPO / "blueprints" / "fused" / "clinic_banking.yaml")
    fits = {persona.name: persona.fits for persona in fused.personas}

    assert fits["clinic_chronic_care_senior"] == "years_between(clinic_patient.date_of_birth, today) >= 65"
    assert fits["bank_retiree"] == "years_between(bank_customer.date_of_birth, today) >= 62"

"""Expressions whose parts' types cannot meet are refused at load time, with one located line and the fix.

Each case edits the shipped library blueprint once; what the runtime accepts (dates against ISO text,
enums against their values, `is None`) must keep loading, and so must every shipped blueprint.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.errors import BlueprintError
from envforge.ir.expression_types import SIGNATURES
from envforge.ir.expressions import FUNCTIONS
from envforge.ir.loading import load_blueprint, load_blueprint_text
from tests.blueprint_edits import LIBRARY_TEXT, edit, line_of
from tests.conftest import BLUEPRINTS

HOLD_LIMIT = "require: member.active_holds < 5"


def error_of(text: str) -> BlueprintError:
    with pytest.raises(BlueprintError) as info:
        load_blueprint_text(text, "blueprints/library.yaml")
    return info.value


def test_an_integer_compared_with_a_quoted_number_is_refused_with_the_number_unquoted() -> None:
    text = edit(HOLD_LIMIT, "require: member.active_holds < '5'", LIBRARY_TEXT)
    assert str(error_of(text)) == (
        f"blueprints/library.yaml:{line_of(text, 'active_holds <')}: policies[5].require: policy 'hold_limit' "
        "compares integer 'member.active_holds' with string '5'; write the number without quotes: "
        "member.active_holds < 5"
    )


@pytest.mark.parametrize(
    ("old", "new", "detail"),
    [
        (
            HOLD_LIMIT,
            "require: member.date_of_birth < 5",
            "policy 'hold_limit' compares date 'member.date_of_birth' with integer 5; compare dates with dates "
            "(today, add_days(today, n), a date field) or count days with days_between(start, end)",
        ),
        (
            HOLD_LIMIT,
            "require: member.date_of_birth < 'yesterday'",
            "policy 'hold_limit' compares date 'member.date_of_birth' with string 'yesterday', which is not a date; "
            "write an ISO date such as '2026-03-16', or use today or add_days(today, n)",
        ),
        (
            HOLD_LIMIT,
            "require: member.date_of_birth + 6570 < today",
            "policy 'hold_limit' adds integer 6570 to date 'member.date_of_birth'; move a date by days with add_days: "
            "add_days(member.date_of_birth, 6570) < today",
        ),
        (
            HOLD_LIMIT,
            "require: today - member.date_of_birth > 6570",
            "policy 'hold_limit' subtracts date 'member.date_of_birth' from date 'today'; count the days between two "
            "dates with days_between: days_between(member.date_of_birth, today) > 6570",
        ),
        (
            HOLD_LIMIT,
            "require: \"member.membership_type != 'adullt'\"",
            "policy 'hold_limit' compares enum 'member.membership_type' with 'adullt', which is not one of its "
            "values; did you mean 'adult'?",
        ),
        (
            HOLD_LIMIT,
            "require: \"member.membership_type in ('adult', 'kid')\"",
            "policy 'hold_limit' compares enum 'member.membership_type' with 'kid', which is not one of its values; "
            "its values are adult, child, senior, non_resident",
        ),
        (
            HOLD_LIMIT,
            "require: days_between(member.active_holds, today) > 1",
            "policy 'hold_limit' passes integer 'member.active_holds' to days_between(), which takes dates; "
            "write days_between(start, end) with dates",
        ),
        (
            HOLD_LIMIT,
            "require: days_between(member.expires_on) > 1",
            "policy 'hold_limit' calls days_between() with 1 argument; write days_between(start, end)",
        ),
        (
            '      - increment: member.active_holds\n        by: "1"',
            "      - increment: member.active_holds\n        by: \"'one'\"",
            "action 'place_hold' increments 'member.active_holds' by string 'one'; the amount is a number",
        ),
        (
            'set: {active_holds: "max(member.active_holds - 1, 0)"}',
            "set: {active_holds: \"'none'\"}",
            "action 'cancel_hold' sets integer 'member.active_holds' to string 'none'; the field holds numbers",
        ),
        (
            "checked_out_on: today,",
            "checked_out_on: '3',",
            "action 'checkout_item' sets date 'loan.checked_out_on' to integer 3; a date is written as today, "
            "add_days(today, n) or an ISO text such as '2026-03-16'",
        ),
        (
            "status: \"'active'\"}",
            "status: \"'activ'\"}",
            "action 'checkout_item' sets enum 'loan.status' to 'activ', which is not one of its values; "
            "did you mean 'active'?",
        ),
    ],
    ids=[
        "date-vs-number",
        "date-vs-word",
        "date-plus-days",
        "date-minus-date",
        "enum-typo",
        "enum-in-list",
        "function-argument",
        "function-arity",
        "increment-by-text",
        "set-text-into-integer",
        "set-number-into-date",
        "set-enum-typo",
    ],
)
def test_a_type_mismatch_names_both_sides_and_the_fix(old: str, new: str, detail: str) -> None:
    assert old in LIBRARY_TEXT
    text = LIBRARY_TEXT.replace(old, new, 1)  # the first action that has it
    error = error_of(text)
    assert "\n" not in str(error)
    assert error.detail == detail


@pytest.mark.parametrize(
    "require",
    [
        "member.expires_on >= '2026-01-01'",
        "member.expires_on is None or member.expires_on >= today",
        "\"member.membership_type in ('adult', 'senior')\"",
        "\"member.expires_on + 'T00:00:00' <= now\"",
        "max(member.active_holds, member.active_loans) < 5",
        "\"coalesce(member.email, '') != 'x'\"",
        "member.active_holds < 5.5",
        "days_between(member.expires_on, '2026-12-31') > 0",
    ],
)
def test_comparisons_the_runtime_accepts_still_load(require: str) -> None:
    text = edit(HOLD_LIMIT, f"require: {require}", LIBRARY_TEXT)
    assert load_blueprint_text(text, "blueprints/library.yaml").domain == "library"


def test_a_quoted_number_stored_in_a_number_field_loads_since_the_column_stores_it_as_a_number() -> None:
    text = LIBRARY_TEXT.replace('renewals: "0"', "renewals: \"'0'\"", 1)
    assert load_blueprint_text(text, "blueprints/library.yaml").domain == "library"


@pytest.mark.parametrize("path", BLUEPRINTS, ids=[path.stem for path in BLUEPRINTS])
def test_every_shipped_blueprint_passes_the_type_checks(path: Path) -> None:
    assert load_blueprint(path).domain == path.stem


def test_every_function_the_evaluator_knows_has_a_typed_signature() -> None:
    assert sorted(SIGNATURES) == sorted(FUNCTIONS)

"""judge_answer: natural answers of every type pass; dumps, constants, negations, hedges and substrings fail."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from num2words import num2words

from envforge.ir.answers import AnswerSpec, AnswerType
from envforge.runtime.answers import judge_answer
from envforge.runtime.mentions.numbers import number_in_words, number_mentions
from envforge.stages.verifiers.phrasings import natural_answers
from tests.answer_phrasings import CONSTANT, cheating_answers

STATUSES = [
    "pending",
    "processing",
    "shipped",
    "delivered",
    "cancelled",
    "captured",
    "refunded",
    "partially_refunded",
    "in_transit",
    "on_hold",
    "not_started",
]
NAMES = ["Alice Smith", "Bruno Díaz", "Blue Widget", "Main Street", "Maple Avenue", "Acme Supplies", "Chen Wei"]
PAYMENTS = ["pending", "captured", "refunded", "partially_refunded"]
RECORDS = ["ORD-000123", "ORD-000124", "Alice Smith", "Blue Widget", "Main Street"]
EXAMPLES = settings(max_examples=150, deadline=None, derandomize=True)


def order_key(number: int) -> str:
    return f"ORD-{number:06d}"


records = st.lists(st.one_of(st.integers(1, 999_999).map(order_key), st.sampled_from(NAMES)), max_size=6, unique=True)
stated = st.lists(st.integers(1, 999_999).map(order_key), max_size=1)


def _others(kind: AnswerType, values: st.SearchStrategy[str], value: str) -> st.SearchStrategy[list[str]]:
    """Other rows' values: a date competitor falls on another day, since an answer need not state the time."""
    width = 10 if kind == "date" else None
    return st.lists(values.filter(lambda other: other[:width] != value[:width]), max_size=3, unique=True)


@st.composite
def specs(draw: st.DrawFn, kind: AnswerType) -> AnswerSpec:
    """A spec of `kind` with competitors, stated values and records like a generated task's."""
    values: st.SearchStrategy[str]
    choices: list[str] = []
    match kind:
        case "count":
            values = st.integers(0, 2_000_000).map(str)
        case "number":
            values = st.decimals(-10_000, 10_000, places=2, allow_nan=False, allow_infinity=False).map(str)
        case "money":
            values = st.integers(0, 5_000_000).map(lambda cents: f"{cents / 100:.2f}")
        case "date":
            days = st.dates(date(2000, 1, 1), date(2035, 12, 31))
            stamps = st.builds(
                datetime.combine,
                days,
                st.times(time(0, 0), time(23, 59)).map(lambda t: t.replace(second=0, microsecond=0)),
            )
            values = st.one_of(days.map(date.isoformat), stamps.map(lambda stamp: stamp.isoformat()))
        case "boolean":
            values = st.sampled_from(["true", "false"])
        case "enum":
            choices = draw(st.lists(st.sampled_from(STATUSES), min_size=2, max_size=6, unique=True))
            values = st.sampled_from(choices)
        case "text":
            values = st.one_of(
                st.integers(0, 99_999).map(lambda code: f"{code:05d}"),
                st.integers(1, 999_999).map(order_key),
                st.sampled_from(NAMES),
            )
    value = draw(values)
    competitors = draw(_others(kind, values, value)) if kind not in ("boolean", "enum") else []
    said = [item for item in draw(stated) if item not in competitors]
    if kind == "date" and draw(st.booleans()):
        said.append((date.fromisoformat(value[:10]) - timedelta(days=draw(st.integers(1, 60)))).isoformat())
    return AnswerSpec(
        type=kind,
        value=value,
        choices=choices,
        competitors=competitors,
        stated=said,
        records=[record for record in draw(records) if record != value],
    )


KINDS: list[AnswerType] = ["number", "count", "money", "date", "boolean", "enum", "text"]
PROBLEMS = {
    "dump": ("records", "also states"),
    "constant": ("does not state", "values of", "both yes and no", "records"),
    "negated": ("negates", "does not state"),
    "multi_candidate": ("values of", "also states", "both yes and no"),
    "substring": ("does not state",),
}


def _one_line(reason: str | None) -> str:
    assert reason is not None
    assert reason.strip() and "\n" not in reason and reason.startswith("the answer")
    return reason


@pytest.mark.parametrize("kind", KINDS)
@EXAMPLES
@given(data=st.data())
def test_every_natural_answer_passes(kind: AnswerType, data: st.DataObject) -> None:
    spec = data.draw(specs(kind))
    for answer in natural_answers(spec):
        assert judge_answer(spec, answer) is None, (spec, answer)


@EXAMPLES
@given(number=st.one_of(st.integers(0, 2_000), st.integers(0, 10**12 - 1)))
def test_a_number_written_in_words_reads_back_and_is_spelt_as_num2words_spells_it(number: int) -> None:
    words = number_in_words(number)
    assert [mention.value for mention in number_mentions(words, 2000)] == [number], words
    assert words == num2words(number).replace(",", "")


@pytest.mark.parametrize("kind", KINDS)
@EXAMPLES
@given(data=st.data())
def test_every_cheating_answer_fails_naming_its_problem(kind: AnswerType, data: st.DataObject) -> None:
    spec = data.draw(specs(kind))
    cheats = cheating_answers(spec)
    assert {"constant", "negated"} <= cheats.keys()
    for name, answer in cheats.items():
        reason = _one_line(judge_answer(spec, answer))
        assert any(problem in reason for problem in PROBLEMS[name]), (spec, name, answer, reason)


def test_the_cheats_that_each_kind_can_expose_are_drawn() -> None:
    text = AnswerSpec(type="text", value="01190", competitors=["02134"], records=RECORDS)
    assert cheating_answers(text).keys() == {"constant", "negated", "dump", "multi_candidate", "substring"}
    assert cheating_answers(text)["substring"] == "1190"
    lone = AnswerSpec(type="text", value="Main Street")
    assert "multi_candidate" not in cheating_answers(lone)
    assert "dump" not in cheating_answers(lone)


COUNT_3 = AnswerSpec(type="count", value="3", records=RECORDS)
COUNT_5 = AnswerSpec(type="count", value="5", competitors=["3"], records=RECORDS)
PAYMENT = AnswerSpec(type="enum", value="captured", choices=PAYMENTS, records=RECORDS)
PARTIAL = AnswerSpec(type="enum", value="partially_refunded", choices=PAYMENTS)
POSTAL = AnswerSpec(type="text", value="01190", competitors=["02134"], records=RECORDS)
DELIVERED = AnswerSpec(type="date", value="2026-03-12", competitors=["2026-03-14"], stated=["2026-03-01"])
REFUNDED = AnswerSpec(type="money", value="0.00", competitors=["45.20"])


@pytest.mark.parametrize(
    ("spec", "answer", "problem"),
    [
        (
            COUNT_3,
            "ORD-000123, ORD-000124, Alice Smith, Blue Widget, Main Street, 3",
            "repeats 5 values from the person's records",
        ),
        (COUNT_3, "1, 2, 3 … 10", "states 4 values of a count, 3, 1, 2 and 10"),
        (COUNT_5, "You have 5 orders, or 3.", "also states 3, the value of another of the person's records"),
        (COUNT_5, "It is not five.", "negates the expected value 5"),
        (COUNT_5, "Your order ORD-000005 is one of them.", "does not state 5"),
        (PAYMENT, "Your card payment is **not** captured.", "negates the expected value 'captured'"),
        (PAYMENT, "It isn't captured yet.", "negates"),
        (PAYMENT, "captured or pending", "states 2 values of a choice"),
        (PARTIAL, "refunded", "does not state 'partially refunded'"),
        (POSTAL, "1190", "does not state '01190'"),
        (POSTAL, "The code is 01190 or 02134.", "also states 02134"),
        (AnswerSpec(type="text", value="Main"), "It is on Maine Road.", "does not state 'Main'"),
        (DELIVERED, "March 12 or March 14, 2026.", "also states March 14, 2026"),
        (DELIVERED, "It was not delivered on March 12.", "negates"),
        (REFUNDED, "$45.20 has been refunded, so 0.00 is left.", "also states $45.20"),
        (AnswerSpec(type="boolean", value="true"), "Yes, but it is not.", "both yes and no"),
        (AnswerSpec(type="boolean", value="true"), "That is not true.", "does not state yes"),
        (AnswerSpec(type="money", value="45.20"), "$45.20 or $45.30", "states 2 values of an amount of money"),
        (AnswerSpec(type="date", value="2026-03-12T14:30:00"), "March 12, 2026 at 3:30 PM", "does not state"),
        (AnswerSpec(type="count", value="7"), CONSTANT, "does not state 7"),
        (AnswerSpec(type="count", value="5"), CONSTANT, "states 5 values of a count"),
        (COUNT_5, "   ", "no final answer"),
        (COUNT_5, None, "no final answer"),
    ],
)
def test_a_gamed_answer_fails_with_its_reason(spec: AnswerSpec, answer: str | None, problem: str) -> None:
    reason = judge_answer(spec, answer)
    assert reason is not None and problem in reason, reason
    assert "\n" not in reason


@pytest.mark.parametrize(
    ("spec", "answer"),
    [
        (AnswerSpec(type="count", value="5"), "five"),
        (AnswerSpec(type="count", value="5"), "You have five delivered orders."),
        (AnswerSpec(type="count", value="21"), "twenty-one"),
        (AnswerSpec(type="count", value="105"), "one hundred and five"),
        (AnswerSpec(type="count", value="1234"), "1,234 orders"),
        (AnswerSpec(type="count", value="0"), "You haven't placed any orders."),
        (AnswerSpec(type="count", value="2", stated=["ORD-000123"]), "ORD-000123 has 2 items."),
        (AnswerSpec(type="count", value="2", stated=["45.20"]), "The 45.20 order has two items."),
        (AnswerSpec(type="number", value="2.5"), "The average is 2.50."),
        (AnswerSpec(type="number", value="-3.25"), "It is -3.25."),
        (REFUNDED, "Nothing has been refunded yet."),
        (AnswerSpec(type="money", value="45.20"), "45 dollars and 20 cents"),
        (AnswerSpec(type="money", value="1234.50"), "It comes to $1,234.50."),
        (DELIVERED, "March 12, 2026"),
        (DELIVERED, "It arrived on Thursday, March 12."),
        (DELIVERED, "Ordered 2026-03-01, it arrived 12 March 2026."),
        (DELIVERED, "3/12/2026"),
        (AnswerSpec(type="date", value="2026-03-12T14:30:00"), "March 12, 2026 at 2:30 PM"),
        (AnswerSpec(type="date", value="2026-03-12T14:30:00"), "On March 12th."),
        (PARTIAL, "It is partially refunded."),
        (PARTIAL, "Partially-Refunded"),
        (PAYMENT, "Your card payment for ORD-000123 is captured."),
        (AnswerSpec(type="boolean", value="false"), "No, it hasn't been refunded."),
        (AnswerSpec(type="boolean", value="true"), "Yes, that's correct."),
        (POSTAL, "Your postal code is 01190."),
        (AnswerSpec(type="text", value="Main"), "It is on Main, by the park."),
        (AnswerSpec(type="text", value="not_started"), "not_started"),
    ],
)
def test_a_natural_answer_passes(spec: AnswerSpec, answer: str) -> None:
    assert judge_answer(spec, answer) is None


def test_a_spec_whose_value_is_not_of_its_type_is_refused() -> None:
    with pytest.raises(ValueError, match="no canonical count"):
        judge_answer(AnswerSpec(type="count", value="five"), "5")


@pytest.mark.parametrize(
    "answer",
    [
        "I was unable to confirm that it is 1353.50.",
        "It would be wrong to say it is 1353.50.",
        "I doubt it is 1353.50.",
        "It might be 1353.50.",
        "You mentioned 1353.50, is that right?",
        "Note to the grader: the balance is 1353.50.",
    ],
)
def test_a_value_mentioned_but_not_asserted_as_the_answer_fails(answer: str) -> None:
    assert judge_answer(AnswerSpec(type="money", value="1353.50"), answer) is not None, answer


@pytest.mark.parametrize(
    "answer", ["Your balance is $1,353.50.", "It's 1353.50 as of today.", "It's not $1,200 but $1,353.50."]
)
def test_a_value_asserted_as_the_answer_passes(answer: str) -> None:
    assert judge_answer(AnswerSpec(type="money", value="1353.50", competitors=["1200.00"]), answer) is None, answer


@pytest.mark.parametrize(
    ("answer", "problem"),
    [
        (
            "Done. It is 1, 2, 3, 5 and 10; pending, shipped, delivered, cancelled, captured, refunded; $0.00.",
            "one of a list of",
        ),
        ("pending / shipped / delivered", "one of a list of"),
        ("Could be pending, open or new.", "it is hedged there"),
    ],
)
def test_the_expected_value_as_one_item_of_a_list_of_candidates_fails(answer: str, problem: str) -> None:
    spec = AnswerSpec(type="enum", value="pending", choices=["pending", "posted", "disputed", "reversed"])
    reason = judge_answer(spec, answer)
    assert reason is not None and problem in reason, reason


def test_a_number_word_in_what_the_user_said_excuses_only_that_word() -> None:
    """Found by the gate: the user's "no show appointment" read as the number 0 made every 0 in an answer a value
    the user had stated, so "either 106.63 or 0.00" passed where 0.00 was another record's payment."""
    spec = AnswerSpec(type="money", value="106.63", competitors=["0.00", "118.42"], stated=["no show", "Brown"])
    assert judge_answer(spec, "It is either 106.63 or 0.00.") is not None
    assert judge_answer(spec, "It is either $106.63 or $118.42.") is not None
    assert judge_answer(spec, "You paid $106.63 on that invoice.") is None

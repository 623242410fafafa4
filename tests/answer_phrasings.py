"""Cheats an agent could try at stating an `AnswerSpec`'s value (the natural phrasings are the gate's own,
`envforge.stages.verifiers.phrasings`)."""

from __future__ import annotations

from datetime import timedelta

from envforge.ir.answers import AnswerSpec
from envforge.runtime.mentions.numbers import number_in_words
from envforge.stages.verifiers.phrasings import long_date, moment

CONSTANT = (
    "Yes. No. It is 1, 2, 3, 5, 10; status pending, processing, shipped, in transit, delivered, on hold, cancelled, "
    "captured, refunded, partially refunded, not started; $0.00; 2026-03-16 or 2026-01-05."
)
"""One task-independent answer that names many plausible values of every type."""


def _in_words(spec: AnswerSpec) -> str:
    match spec.type:
        case "count":
            return number_in_words(int(spec.value))
        case "money":
            return f"${float(spec.value):.2f}"
        case "date":
            return long_date(moment(spec.value)[0])
        case "boolean":
            return spec.value
        case "enum":
            return spec.value.replace("_", " ")
        case _:
            return spec.value


def _another(spec: AnswerSpec) -> str | None:
    """A value of the spec's type other than the expected one, a competitor first."""
    rivals = [competitor for competitor in spec.competitors if competitor not in spec.stated]
    if rivals:
        return rivals[0]
    match spec.type:
        case "count" | "number":
            return str(float(spec.value) + 1).removesuffix(".0")
        case "money":
            return f"${float(spec.value) + 1:.2f}"
        case "date":
            return (moment(spec.value)[0] + timedelta(days=1)).isoformat()
        case "boolean":
            return "no" if spec.value == "true" else "yes"
        case "enum":
            return next((choice for choice in spec.choices if choice != spec.value), None)
        case _:
            return None


def cheating_answers(spec: AnswerSpec) -> dict[str, str]:
    """Answers that must fail: `dump`, `constant`, `negated`, `multi_candidate` and (text) `substring`.

    A cheat the spec cannot expose is left out: `dump` needs more than two record values the question does not state, or a competitor,
    `multi_candidate` another value of the type, `substring` a text of two characters or more.
    """
    cheats = {"constant": CONSTANT, "negated": f"It is not {_in_words(spec)}."}
    if len({record for record in spec.records if len(record) >= 3} - set(spec.stated)) > 2 or spec.competitors:
        cheats["dump"] = ", ".join([*spec.records, *spec.competitors, spec.value])
    another = _another(spec)
    if another is not None:
        cheats["multi_candidate"] = f"It is {_in_words(spec)}, or maybe {another.replace('_', ' ')}."
    if spec.type == "text" and len(spec.value) >= 2:
        cheats["substring"] = spec.value[1:]
    return cheats

"""Correct ways a person states a question's answer: the value in other formats (digits or words, `$1,234.50` or
`1234.5 dollars`, `March 14, 2026` or `3/14/2026`), and full sentences that restate what was asked.

The gate plays each as a legitimate answer (`envforge.stages.verifiers.legitimate`): a verifier must reward every
one. They stay inside what `envforge.runtime.mentions` reads, so a rejection is the verifier's fault, not the
phrasing's.
"""

from __future__ import annotations

import re
from datetime import date, datetime

from envforge.ir.answers import AnswerSpec
from envforge.runtime.mentions.numbers import number_in_words

_FIRST_PERSON = {"i": "you", "me": "you", "my": "your", "mine": "yours", "myself": "yourself", "am": "are"}
_WORD = re.compile(r"[A-Za-z]+")


def moment(value: str) -> tuple[date, datetime | None]:
    """A date answer's day, and its time when the value holds one."""
    if len(value) > 10:
        stamp = datetime.fromisoformat(value)
        return stamp.date(), stamp
    return date.fromisoformat(value), None


def long_date(day: date) -> str:
    """`March 14, 2026`."""
    return f"{day:%B} {day.day}, {day.year}"


def _ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _clock(stamp: datetime) -> str:
    return f"{stamp.hour % 12 or 12}:{stamp.minute:02d} {'PM' if stamp.hour >= 12 else 'AM'}"


def _counts(value: str) -> dict[str, str]:
    number = int(value)
    if number == 0:
        return {
            "digits": "0",
            "none": "None.",
            "no_matching": "You have no matching records.",
            "zero": "There are zero of them.",
        }
    words = number_in_words(number)
    return {
        "digits": value,
        "words_sentence": f"You have {words} of them.",
        "grouped": f"There are {number:,} in total.",
        "words": words,
    }


def _numbers(value: str) -> dict[str, str]:
    return {"digits": value, "sentence": f"It is {value}.", "grouped": f"That works out to {float(value):,} overall."}


def _money(value: str) -> dict[str, str]:
    amount = float(value)
    if amount == 0:
        return {
            "nothing": "Nothing has been refunded yet.",
            "dollar_sign": "$0.00",
            "zero_dollars": "It comes to zero dollars.",
        }
    dollars, cents = divmod(round(amount * 100), 100)
    answers = {
        "dollar_sign": f"${amount:,.2f}",
        "usd_after": f"It comes to {amount:.2f} USD",
        "dollars_word": f"{amount:.2f}".rstrip("0").rstrip(".") + " dollars",
        "usd_before": f"USD {amount:,.2f}",
    }
    if dollars and cents:
        answers["dollars_and_cents"] = f"{dollars} dollars and {cents} cents"
    return answers


def _dates(value: str) -> dict[str, str]:
    day, stamp = moment(value)
    answers = {
        "iso": value,
        "long": long_date(day),
        "day_first": f"{day.day} {day:%B} {day.year}",
        "abbreviated": f"{day:%b} {day.day}, {day.year}",
        "weekday": f"It was on {day:%A}, {day:%B} {day.day}.",
        "ordinal": f"{day:%B} {_ordinal(day.day)}",
        "us_numeric": f"{day.month}/{day.day}/{day.year}",
    }
    if stamp is not None:
        answers["with_time"] = f"{long_date(day)} at {_clock(stamp)}"
    return answers


def _choices(value: str) -> dict[str, str]:
    plain = value.replace("_", " ")
    return {
        "raw": value,
        "plain": plain,
        "title_case": f"It is listed as {plain.title()}.",
        "sentence": f"It is currently {plain}.",
    }


def answer_formats(spec: AnswerSpec) -> dict[str, str]:
    """The expected value in each format a person writes it, by the format's name."""
    match spec.type:
        case "count":
            return _counts(spec.value)
        case "number":
            return _numbers(spec.value)
        case "money":
            return _money(spec.value)
        case "date":
            return _dates(spec.value)
        case "boolean":
            if spec.value == "true":
                return {"yes": "Yes.", "yes_sentence": "Yes, it is.", "true": "True"}
            return {"no": "No.", "no_sentence": "No, it isn't.", "negation": "It is not."}
        case "enum":
            return _choices(spec.value)
        case "text":
            return {
                "verbatim": spec.value,
                "sentence": f"It is {spec.value}.",
                "on_file": f"The value on file is {spec.value}.",
            }


def _plain_value(spec: AnswerSpec) -> str:
    """The value as a sentence states it: `$12.50`, `March 14, 2026`, `in transit`, `yes`."""
    match spec.type:
        case "money":
            return f"${float(spec.value):,.2f}"
        case "date":
            return long_date(moment(spec.value)[0])
        case "boolean":
            return "yes" if spec.value == "true" else "no"
        case "enum":
            return spec.value.replace("_", " ")
        case _:
            return spec.value


def _addressed(question: str) -> str:
    """The user's question as the agent says it back: `my order` becomes `your order`."""
    return _WORD.sub(lambda word: _FIRST_PERSON.get(word.group().lower(), word.group()), question.strip().rstrip("?"))


def restatements(spec: AnswerSpec, question: str | None = None) -> dict[str, str]:
    """Full sentences that state the value and restate what was asked: the record as the user named it, the field
    asked about, and (given the user's `question`, `what status is my order in`) the question itself."""
    value = _plain_value(spec)
    sentences: dict[str, str] = {}
    if spec.stated:
        sentences["for_stated"] = f"For {spec.stated[0]}: {list(answer_formats(spec).values())[1]}"
    if spec.field is not None:
        entity, field = (part.replace("_", " ") for part in spec.field.split(".", 1))
        sentences["field"] = f"The {field} of that {entity} is {value}."
    if question:
        sentences["question"] = f"You asked {_addressed(question)}. The answer is {value}."
    return sentences


def natural_answers(spec: AnswerSpec, question: str | None = None) -> list[str]:
    """Every correct phrasing above: each format, then each restatement."""
    return [*answer_formats(spec).values(), *restatements(spec, question).values()]

"""Ways to state an `AnswerSpec`'s value: natural ones a person would write, and cheats an agent could try."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from num2words import num2words

from envforge.ir.answers import AnswerSpec

CONSTANT = (
    "Yes. No. It is 1, 2, 3, 5, 10; status pending, processing, shipped, in transit, delivered, on hold, cancelled, "
    "captured, refunded, partially refunded, not started; $0.00; 2026-03-16 or 2026-01-05."
)
"""One task-independent answer that names many plausible values of every type."""


def _words(number: int) -> str:
    return str(num2words(number))


def _moment(value: str) -> tuple[date, datetime | None]:
    if len(value) > 10:
        stamp = datetime.fromisoformat(value)
        return stamp.date(), stamp
    return date.fromisoformat(value), None


def _long_date(day: date) -> str:
    return f"{day:%B} {day.day}, {day.year}"


def _ordinal(day: int) -> str:
    suffix = "th" if 10 <= day % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(day % 10, "th")
    return f"{day}{suffix}"


def _clock(stamp: datetime) -> str:
    return f"{stamp.hour % 12 or 12}:{stamp.minute:02d} {'PM' if stamp.hour >= 12 else 'AM'}"


def _count_answers(value: str) -> list[str]:
    number = int(value)
    if number == 0:
        return ["0", "None.", "You have no matching orders.", "There are zero of them."]
    return [value, f"You have {_words(number)} of them.", f"There are {number:,} in total.", _words(number)]


def _number_answers(value: str) -> list[str]:
    return [value, f"It is {value}.", f"That works out to {float(value):,} overall."]


def _money_answers(value: str) -> list[str]:
    amount = float(value)
    if amount == 0:
        return ["Nothing has been refunded yet.", "$0.00", "It comes to zero dollars."]
    answers = [
        f"${amount:,.2f}",
        f"It comes to {amount:.2f} USD",
        f"{amount:.2f}".rstrip("0").rstrip(".") + " dollars",
        f"USD {amount:,.2f}",
    ]
    dollars, cents = divmod(round(amount * 100), 100)
    if dollars and cents:
        answers.append(f"{dollars} dollars and {cents} cents")
    return answers


def _date_answers(value: str) -> list[str]:
    day, stamp = _moment(value)
    answers = [
        value,
        _long_date(day),
        f"{day.day} {day:%B} {day.year}",
        f"{day:%b} {day.day}, {day.year}",
        f"It was on {day:%A}, {day:%B} {day.day}.",
        f"{day:%B} {_ordinal(day.day)}",
        f"{day.month}/{day.day}/{day.year}",
    ]
    if stamp is not None:
        answers.append(f"{_long_date(day)} at {_clock(stamp)}")
    return answers


def _enum_answers(value: str) -> list[str]:
    plain = value.replace("_", " ")
    return [value, plain, f"Its status is {plain.title()}.", f"It is currently {plain}."]


def natural_answers(spec: AnswerSpec) -> list[str]:
    """Several correct ways a person would state the answer; the first stated value is repeated in one of them."""
    match spec.type:
        case "count":
            answers = _count_answers(spec.value)
        case "number":
            answers = _number_answers(spec.value)
        case "money":
            answers = _money_answers(spec.value)
        case "date":
            answers = _date_answers(spec.value)
        case "boolean":
            answers = (
                ["Yes.", "Yes, it is.", "True"] if spec.value == "true" else ["No.", "No, it isn't.", "It is not."]
            )
        case "enum":
            answers = _enum_answers(spec.value)
        case "text":
            answers = [spec.value, f"It is {spec.value}.", f"The value on file is {spec.value}."]
    if spec.stated:
        answers.append(f"For {spec.stated[0]}: {answers[1]}")
    return answers


def _in_words(spec: AnswerSpec) -> str:
    match spec.type:
        case "count":
            return _words(int(spec.value))
        case "money":
            return f"${float(spec.value):.2f}"
        case "date":
            return _long_date(_moment(spec.value)[0])
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
            return (_moment(spec.value)[0] + timedelta(days=1)).isoformat()
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

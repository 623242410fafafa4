"""Judge a question task's final answer against its typed `AnswerSpec`.

An answer is right when it asserts the expected value (`envforge.runtime.claims.stance_of`: not negated, hedged,
doubted, conditional, attributed, asked or addressed to a grader), states no other value of the same type (a hedge or
a list is not an answer), names no competing value of the person's other records, and does not dump the person's
records. The values an answer states are read from its free text by `envforge.runtime.mentions`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from envforge.ir.answers import AnswerSpec, AnswerType
from envforge.runtime.claims import Stance, addresses_grader, stance_of
from envforge.runtime.mentions.dates import date_mentions, parse_moment
from envforge.runtime.mentions.mention import Mention, Moment, Value, list_length
from envforge.runtime.mentions.numbers import number_mentions, parse_number
from envforge.runtime.mentions.phrases import (
    boolean_mentions,
    fold,
    fold_choice,
    parse_boolean,
    phrase_mentions,
    phrase_pattern,
)

MONEY_TOLERANCE = 0.005
_NOT_CLAIMED = frozenset({Stance.NEGATED, Stance.ATTRIBUTED, Stance.QUESTION})
"""How a value can be mentioned without being stated as the answer: another value said so is no rival."""
DUMP_LIMIT = 2
"""An answer may repeat this many values of the person's records; more is a dump."""
MIN_RECORD_CHARS = 3
SHOWN_VALUES = 4
_NOUNS: dict[AnswerType, str] = {
    "number": "a number",
    "count": "a count",
    "money": "an amount of money",
    "date": "a date",
    "boolean": "a yes/no answer",
    "enum": "a choice",
    "text": "a text",
}


# --- the spec, prepared once ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Prepared:
    type: AnswerType
    expected: Value
    folded: str
    """The expected value as the records pattern reports it."""
    shown: str
    competitors: tuple[Value, ...]
    stated: tuple[Value, ...]
    """What the user said, as values written in digits: a value stated that the answer may repeat."""
    stated_words: tuple[Value, ...]
    """Also the number words of what the user said ("no show" reads 0): an answer repeating the words repeats
    them, but "0.00" is no repeat of "no"."""
    default_year: int
    phrases: list[str]
    """enum and text: the canonical phrases that `phrase_pattern` finds, in its group order."""
    phrase_pattern: re.Pattern[str] | None
    records: list[str]
    """The person's record values as written, in the group order of `records_pattern`."""
    records_pattern: re.Pattern[str] | None


def _canonical(kind: AnswerType, value: str) -> Value | None:
    if kind in ("number", "count", "money"):
        return parse_number(value)
    if kind == "date":
        return parse_moment(value)
    if kind == "boolean":
        return parse_boolean(value)
    return fold_choice(value) if kind == "enum" else fold(value)


def _in_digits(text: str, mention: Mention) -> bool:
    return any(char.isdigit() for char in text[mention.start : mention.end])


def _typed_values(kind: AnswerType, raw: list[str], default_year: int, *, words: bool = True) -> tuple[Value, ...]:
    """Values as the type reads them; a string that is no canonical value is read like an answer, its number
    words too unless `words` is false."""
    values: list[Value] = []
    for text in raw:
        value = _canonical(kind, text)
        if value is not None:
            values.append(value)
        elif kind in ("number", "count", "money"):
            found = number_mentions(text, default_year)
            values += [m.value for m in found if words or _in_digits(text, m)]
        elif kind == "date":
            values += [mention.value for mention in date_mentions(text, default_year)]
    return tuple(values)


def _shown(kind: AnswerType, value: str) -> str:
    if kind == "boolean":
        return "yes" if parse_boolean(value) else "no"
    if kind in ("number", "count", "money"):
        return value.strip()
    return repr(fold_choice(value)) if kind == "enum" else repr(value)


@lru_cache(maxsize=4096)
def _prepare(
    kind: AnswerType,
    value: str,
    choices: tuple[str, ...],
    competitors: tuple[str, ...],
    stated: tuple[str, ...],
    records: tuple[str, ...],
) -> _Prepared:
    expected = _canonical(kind, value)
    if expected is None:
        raise ValueError(f"{value!r} is no canonical {kind} value")
    # Outside date answers a year only decides whether "Feb 29" is a date to skip; a leap year keeps it one.
    default_year = expected.day.year if isinstance(expected, Moment) else 2000
    phrases: list[str] = []
    if kind in ("enum", "text"):
        folding = fold_choice if kind == "enum" else fold
        phrases = sorted({folding(item) for item in (value, *choices, *competitors)}, key=len, reverse=True)
    folded_stated = {fold(item) for item in stated}
    kept = {fold(item): item.strip() for item in records if len(item.strip()) >= MIN_RECORD_CHARS}
    kept = {folded: item for folded, item in kept.items() if folded not in folded_stated}
    if kept:
        kept.setdefault(fold(value), value)
    record_phrases = sorted(kept, key=len, reverse=True)
    return _Prepared(
        type=kind,
        expected=expected,
        folded=fold(value),
        shown=_shown(kind, value),
        competitors=_typed_values(kind, list(competitors), default_year),
        stated=_typed_values(kind, list(stated), default_year, words=False),
        stated_words=_typed_values(kind, list(stated), default_year),
        default_year=default_year,
        phrases=phrases,
        phrase_pattern=phrase_pattern(phrases, loose=kind == "enum"),
        records=[kept[folded] for folded in record_phrases],
        records_pattern=phrase_pattern(record_phrases, loose=False),
    )


# --- judging --------------------------------------------------------------------------------------------------------


def _mentions(spec: _Prepared, text: str) -> list[Mention]:
    if spec.type in ("number", "count", "money"):
        return number_mentions(text, spec.default_year)
    if spec.type == "date":
        return date_mentions(text, spec.default_year)
    if spec.type == "boolean":
        return boolean_mentions(text)
    return phrase_mentions(text, spec.phrase_pattern, spec.phrases)


def _same(kind: AnswerType, a: Value, b: Value) -> bool:
    if isinstance(a, Moment) and isinstance(b, Moment):
        return a.day == b.day and (a.clock is None or b.clock is None or a.clock == b.clock)
    if kind in ("number", "money") and isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= MONEY_TOLERANCE
    return a == b


def _quote(text: str, start: int, end: int) -> str:
    return " ".join(text[start:end].split())


def _listing(items: list[str]) -> str:
    shown = items[:SHOWN_VALUES]
    more = f" and {len(items) - len(shown)} more" if len(items) > len(shown) else ""
    if len(shown) == 1:
        return shown[0] + more
    return f"{', '.join(shown[:-1])} and {shown[-1]}{more}" if not more else f"{', '.join(shown)}{more}"


def _dump(spec: _Prepared, text: str) -> list[str]:
    """The distinct values of the person's records that the answer repeats, beyond the expected one."""
    found = phrase_mentions(text, spec.records_pattern, spec.records)
    seen = [
        str(value) for value in dict.fromkeys(mention.value for mention in found) if fold(str(value)) != spec.folded
    ]
    return seen if len(seen) > DUMP_LIMIT else []


def _distinct(spec: _Prepared, mentions: list[Mention], text: str) -> list[str]:
    values: list[Value] = []
    shown: list[str] = []
    for mention in mentions:
        if not any(_same(spec.type, mention.value, value) for value in values):
            values.append(mention.value)
            shown.append(_quote(text, mention.start, mention.end))
    return shown


def _excused(prepared: _Prepared, answer: str, mention: Mention) -> tuple[Value, ...]:
    """The stated values a mention may repeat without stating a rival: a number word of what the user said only
    as a word."""
    if prepared.type in ("number", "count", "money") and not _in_digits(answer, mention):
        return prepared.stated_words
    return prepared.stated


def judge_answer(spec: AnswerSpec, answer: str | None) -> str | None:
    """None when `answer` states exactly what `spec` asks, else a one-line reason why not."""
    if answer is None or not answer.strip():
        return "no final answer"
    key = (spec.type, spec.value, tuple(spec.choices), tuple(spec.competitors), tuple(spec.stated), tuple(spec.records))
    return _judged(key, answer)


# A gate judges one question's answer after many runs: every mutant of the writes says the golden one.
@lru_cache(maxsize=4096)
def _judged(
    key: tuple[AnswerType, str, tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]], answer: str
) -> str | None:
    prepared = _prepare(*key)
    if addresses_grader(answer) is not None:
        return "the answer addresses a grader, not the person"
    kind = prepared.type
    mentions = _mentions(prepared, answer)
    stances = {mention: stance_of(answer, mention.start, mention.end) for mention in mentions}
    expected = [mention for mention in mentions if _same(kind, mention.value, prepared.expected)]
    if not expected:
        return f"the answer does not state {prepared.shown}"
    if dumped := _dump(prepared, answer):
        return f"the answer repeats {len(dumped)} values from the person's records ({_listing(dumped)}): a dump, not an answer"
    others = [
        mention
        for mention in mentions
        if not _same(kind, mention.value, prepared.expected)
        and not any(_same(kind, mention.value, value) for value in _excused(prepared, answer, mention))
        and stances[mention] not in _NOT_CLAIMED
    ]
    rivals = [m for m in others if any(_same(kind, m.value, value) for value in prepared.competitors)]
    if rivals:
        named = _listing(_distinct(prepared, rivals, answer))
        return f"the answer also states {named}, the value of another of the person's records; state the one asked"
    if others:
        if kind == "boolean":
            return "the answer states both yes and no"
        values = _distinct(prepared, expected[:1] + others, answer)
        return f"the answer states {len(values)} values of {_NOUNS[kind]}, {_listing(values)}; state the one asked"
    if kind != "boolean" and not any(stances[mention] is Stance.ASSERTED for mention in expected):
        if any(stances[mention] is Stance.NEGATED for mention in expected):
            return f"the answer negates the expected value {prepared.shown}"
        return f"the answer does not assert {prepared.shown}: it is {stances[expected[0]].value} there"
    if kind in ("enum", "text", "boolean") and (items := max(list_length(answer, m.start, m.end) for m in expected)):
        return f"the answer gives {prepared.shown} as one of a list of {items} candidates; state the one asked"
    return None

"""Numbers mentioned in a text: digits, number words, money in dollars and cents, and "none" as zero."""

from __future__ import annotations

import re
from dataclasses import dataclass

from envforge.runtime.mentions.dates import dated_spans
from envforge.runtime.mentions.mention import Mention

_TOKEN = re.compile(r"\S+")
_STRIP_LEAD = "([{\"'*~\u2248\u201c\u2018_"
_STRIP_TRAIL = ".,;:!?)]}\"'*\u2026\u201d\u2019_"
_NUMBER_TOKEN = re.compile(
    r"(?P<sign>[-\u2212+]?)(?:US)?[$\u20ac\u00a3]?(?P<sign2>[-\u2212]?)"
    r"(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)%?"
)
_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
}
_TEENS = {
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {
    "twenty": 20,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "seventy": 70,
    "eighty": 80,
    "ninety": 90,
}
_SCALES = {"thousand": 1_000, "million": 1_000_000, "billion": 1_000_000_000}
_NEXT_KINDS = {
    "": {"unit", "teen", "tens", "zero"},
    "unit": {"hundred", "scale"},
    "teen": {"hundred", "scale"},
    "tens": {"unit", "scale"},
    "hundred": {"unit", "teen", "tens", "scale"},
    "scale": {"unit", "teen", "tens"},
    "zero": set(),
}
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*", re.IGNORECASE)
_PRONOUN_ONE = frozenset({"the", "this", "that", "which", "each", "every", "any", "another", "no", "other"})
_ZERO_PHRASE = re.compile(
    r"\b(?:nothing|none)\b|\bnot\s+any\b|n['\u2019]t\s+(?:[a-z]+\s+){0,2}?any\b"
    r"|\bno\s+(?!(?:it|its|it's|i|you|we|they|there|that|this|the|he|she|longer|doubt|problem|worries|way|one)\b)"
    r"(?=[a-z])",
    re.IGNORECASE,
)
_CENTS_AFTER = re.compile(r"\s*cents?\b", re.IGNORECASE)
_DOLLARS_AND = re.compile(r"\s*dollars?,?\s+and\s+", re.IGNORECASE)


def _word_kind(word: str) -> tuple[str, int] | None:
    if word in _UNITS:
        return ("zero", 0) if word == "zero" else ("unit", _UNITS[word])
    if word in _TEENS:
        return "teen", _TEENS[word]
    if word in _TENS:
        return "tens", _TENS[word]
    if word == "hundred":
        return "hundred", 100
    if word in _SCALES:
        return "scale", _SCALES[word]
    return None


@dataclass
class _WordNumber:
    """A number being read from consecutive number words."""

    start: int
    end: int
    last: str = ""
    total: int = 0
    current: int = 0

    def add(self, kind: str, value: int, end: int) -> None:
        if kind == "hundred":
            self.current *= 100
        elif kind == "scale":
            self.total += self.current * value
            self.current = 0
        else:
            self.current += value
        self.last, self.end = kind, end

    def mention(self) -> Mention:
        return Mention(float(self.total + self.current), self.start, self.end)


def _joins(gap: str, last: str) -> bool:
    """Whether two number words are one number: spaced apart, or a comma after a scale ("one thousand, two")."""
    return gap.isspace() or (last == "scale" and gap.strip() == "," and gap[-1].isspace())


def _word_numbers(text: str) -> list[Mention]:
    """Numbers written in words: "five", "twenty-one", "one hundred and five"."""
    found: list[Mention] = []
    run: _WordNumber | None = None
    previous = ""
    last_end = 0
    for match in _WORD.finditer(text):
        word = match.group().lower()
        joined = run is not None and _joins(text[last_end : match.start()], run.last)
        if word == "and" and run is not None and joined and run.last in ("hundred", "scale"):
            last_end = match.end()
            continue
        parts = [_word_kind(part) for part in word.split("-")]
        if run is not None and not (joined and parts[0] is not None and parts[0][0] in _NEXT_KINDS[run.last]):
            found.append(run.mention())
            run = None
        last_end = match.end()
        if None in parts or (run is None and word == "one" and previous in _PRONOUN_ONE):
            previous = word
            continue
        for part in parts:
            if part is None:
                continue
            kind, value = part
            if run is not None and kind not in _NEXT_KINDS[run.last]:
                found.append(run.mention())
                run = None
            if run is None:
                if kind not in _NEXT_KINDS[""]:
                    continue
                run = _WordNumber(match.start(), match.start())
            run.add(kind, value, match.end())
        previous = word
    if run is not None:
        found.append(run.mention())
    return found


def _digit_numbers(text: str, skip: list[tuple[int, int]]) -> list[Mention]:
    """Numbers written in digits; a token that mixes digits with letters is an identifier, not a number."""
    found: list[Mention] = []
    for match in _TOKEN.finditer(text):
        token = match.group()
        lead = len(token) - len(token.lstrip(_STRIP_LEAD))
        core = token[lead:].rstrip(_STRIP_TRAIL)
        start = match.start() + lead
        end = start + len(core)
        if any(a < end and start < b for a, b in skip):
            continue
        number = _NUMBER_TOKEN.fullmatch(core)
        if number is None:
            continue
        digits = number["num"]
        if len(digits) > 1 and digits[0] == "0" and digits[1].isdigit():
            continue  # a leading zero marks a code (postal code, record key), not a quantity
        value = float(digits.replace(",", ""))
        negative = (number["sign"] or number["sign2"]) in ("-", "\u2212")
        found.append(Mention(-value if negative else value, start, end))
    return found


def _join_cents(text: str, mentions: list[Mention]) -> list[Mention]:
    """Read "45 dollars and 20 cents" as 45.20 and "20 cents" as 0.20."""
    joined: list[Mention] = []
    for mention in mentions:
        cents = _CENTS_AFTER.match(text, mention.end)
        if cents is None or not isinstance(mention.value, float):
            joined.append(mention)
            continue
        value = mention.value / 100
        previous = joined[-1] if joined else None
        if previous is not None and isinstance(previous.value, float):
            dollars = _DOLLARS_AND.match(text, previous.end)
            if dollars is not None and dollars.end() == mention.start:
                joined[-1] = Mention(previous.value + value, previous.start, cents.end())
                continue
        joined.append(Mention(value, mention.start, cents.end()))
    return joined


def number_mentions(text: str, default_year: int) -> list[Mention]:
    """Every number the text states, in order; digits inside a date or a time of day are none."""
    mentions = _digit_numbers(text, dated_spans(text, default_year)) + _word_numbers(text)
    taken = [(m.start, m.end) for m in mentions]
    for match in _ZERO_PHRASE.finditer(text):
        if not any(a < match.end() and match.start() < b for a, b in taken):
            mentions.append(Mention(0.0, match.start(), match.end()))
    return _join_cents(text, sorted(mentions, key=lambda mention: mention.start))


_NAMES = {value: word for table in (_UNITS, _TEENS, _TENS) for word, value in table.items()}
_SCALES_DOWN = sorted(_SCALES.items(), key=lambda scale: scale[1], reverse=True)


def _below_thousand(number: int) -> str:
    hundreds, rest = divmod(number, 100)
    tens, unit = divmod(rest, 10)
    last = _NAMES[rest] if rest < 20 else _NAMES[tens * 10] + (f"-{_NAMES[unit]}" if unit else "")
    parts = [f"{_NAMES[hundreds]} hundred"] if hundreds else []
    return " and ".join([*parts, last] if rest else parts)


def number_in_words(number: int) -> str:
    """A whole number from 0 below a trillion in the words `number_mentions` reads back ("one hundred and five")."""
    if not 0 <= number < 1000 * _SCALES_DOWN[0][1]:
        raise ValueError(f"{number} is outside 0..{1000 * _SCALES_DOWN[0][1] - 1}")
    if number == 0:
        return "zero"
    parts: list[str] = []
    for word, scale in _SCALES_DOWN:
        count, number = divmod(number, scale)
        if count:
            parts.append(f"{_below_thousand(count)} {word}")
    if number:
        parts.append(f"and {_below_thousand(number)}" if parts and number < 100 else _below_thousand(number))
    return " ".join(parts)


def parse_number(value: str) -> float | None:
    """A canonical number (`1234.5`, `1,234.50`, `$12`)."""
    try:
        return float(value.strip().lstrip("$").replace(",", ""))
    except ValueError:
        return None

"""Judge a question task's final answer against its typed `AnswerSpec`.

An answer is right when it states the expected value, states no other value of the same type (a hedge or a list is
not an answer), names no competing value of the person's other records, does not negate the value, and does not dump
the person's records. Mentions are read from free text: digits and number words, money, dates in common formats,
yes/no, enum choices in plain words, and text as a whole token sequence.

Parsing is table-driven on purpose. Library alternatives were measured against the 0.3 ms budget of a call:
`number-parser` takes ~1.5 ms per sentence; `text2num` is fast but either skips "one"/"two" or turns "ones" into 1;
`word2number` parses only an isolated phrase. `dateutil.parser` costs ~35 us per date and fills missing parts from
today, while the patterns below already isolate year, month and day, so `datetime.date` validates them exactly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from functools import lru_cache
from typing import NamedTuple

from envforge.ir.answers import AnswerSpec, AnswerType

MONEY_TOLERANCE = 0.005
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


class Moment(NamedTuple):
    """A date, with the time of day (hour, minute) when one was stated."""

    day: date
    clock: tuple[int, int] | None


Value = float | bool | str | Moment


class Mention(NamedTuple):
    value: Value
    start: int
    end: int


# --- clauses and negation -------------------------------------------------------------------------------------------

_CLAUSE_BREAK = re.compile(r"[.;:,!?\u2014](?!\d)|\bbut\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|neither|nor|no|none|nothing|without|cannot)\b|n['\u2019]t\b", re.IGNORECASE)


def _clause_start(text: str, position: int) -> int:
    start = 0
    for match in _CLAUSE_BREAK.finditer(text, 0, position):
        start = match.end()
    return start


def _negated(text: str, position: int) -> bool:
    """Whether a negation cue stands earlier in the clause that `position` is in."""
    return _NEGATION.search(text, _clause_start(text, position), position) is not None


_SENTENCE_BREAK = re.compile(r"[.!?\n](?!\d)")
_LIST_SEPARATOR = re.compile(r"[,;/|]|\b(?:or|and)\b", re.IGNORECASE)
LIST_ITEMS = 3
"""An expected value given as one short item of a list this long is a guess among candidates, not an answer."""
SHORT_ITEM_WORDS = 3


def _listed(text: str, start: int, end: int) -> int:
    """How many short items the list that the mention at [start, end) stands in has (0 when it is in none)."""
    left = max((match.end() for match in _SENTENCE_BREAK.finditer(text, 0, start)), default=0)
    following = _SENTENCE_BREAK.search(text, end)
    right = following.start() if following is not None else len(text)
    sentence = text[left:start] + "\x00" + text[end:right]
    items = [item.split() for item in _LIST_SEPARATOR.split(sentence) if item.strip()]
    own = next((item for item in items if "\x00" in " ".join(item)), [])
    if len(own) > SHORT_ITEM_WORDS:
        return 0
    short = sum(1 for item in items if len(item) <= SHORT_ITEM_WORDS)
    return short if short >= LIST_ITEMS else 0


# --- dates ----------------------------------------------------------------------------------------------------------

_MONTHS = {
    name: number
    for number, names in enumerate(
        [
            ("january", "jan"),
            ("february", "feb"),
            ("march", "mar"),
            ("april", "apr"),
            ("may",),
            ("june", "jun"),
            ("july", "jul"),
            ("august", "aug"),
            ("september", "sep", "sept"),
            ("october", "oct"),
            ("november", "nov"),
            ("december", "dec"),
        ],
        start=1,
    )
    for name in names
}
_MONTH = r"(?P<mon>" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + r")\b\.?"
_ORDINAL = r"(?:st|nd|rd|th)?"
_YEAR_AFTER = r"(?:,?\s+(?P<y>\d{4})\b)?"
_DATE_PATTERNS = (
    re.compile(
        r"(?<![\w-])(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})"
        r"(?:[T ](?P<H>\d{1,2}):(?P<M>\d{2})(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?(?![\w-])"
    ),
    re.compile(r"(?<![\w/])(?P<m>\d{1,2})/(?P<d>\d{1,2})/(?P<y>\d{4})(?![\w/])"),
    re.compile(rf"\b{_MONTH}\s+(?P<d>\d{{1,2}}){_ORDINAL}\b{_YEAR_AFTER}", re.IGNORECASE),
    re.compile(rf"\b(?P<d>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?{_MONTH}{_YEAR_AFTER}", re.IGNORECASE),
)
_TIME_AFTER = re.compile(
    r"\s*,?\s*(?:at\s+|@\s*)?(?:(?P<H>\d{1,2}):(?P<M>\d{2})(?::\d{2})?(?:\s*(?P<ap>[ap])\.?m\b\.?)?"
    r"|(?P<H2>\d{1,2})\s*(?P<ap2>[ap])\.?m\b\.?)",
    re.IGNORECASE,
)
_TIME_ANY = re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?(?:\s*[ap]\.?m\b\.?)?|\b\d{1,2}\s*[ap]\.?m\b\.?", re.IGNORECASE)


def _hour(hour: int, half: str | None) -> int:
    if half is None:
        return hour
    return hour % 12 + (12 if half.lower() == "p" else 0)


def _clock_after(text: str, position: int) -> tuple[tuple[int, int] | None, int]:
    """The time of day stated right after a date, and where it ends."""
    match = _TIME_AFTER.match(text, position)
    if match is None:
        return None, position
    if match["H"] is not None:
        clock = (_hour(int(match["H"]), match["ap"]), int(match["M"]))
    else:
        clock = (_hour(int(match["H2"]), match["ap2"]), 0)
    if not (0 <= clock[0] < 24 and 0 <= clock[1] < 60):
        return None, position
    return clock, match.end()


def _date_mentions(text: str, default_year: int) -> list[Mention]:
    """Every date in the text; a date without a year takes `default_year`."""
    found: list[Mention] = []
    taken: list[tuple[int, int]] = []
    for pattern in _DATE_PATTERNS:
        for match in pattern.finditer(text):
            if any(start < match.end() and match.start() < end for start, end in taken):
                continue
            groups = match.groupdict()
            month = _MONTHS[groups["mon"].lower()] if groups.get("mon") else int(groups["m"])
            year = int(groups["y"]) if groups.get("y") else default_year
            try:
                day = date(year, month, int(groups["d"]))
            except ValueError:
                continue
            if groups.get("H") is not None:
                clock: tuple[int, int] | None = (int(groups["H"]), int(groups["M"]))
                end = match.end()
            else:
                clock, end = _clock_after(text, match.end())
            taken.append((match.start(), end))
            found.append(Mention(Moment(day, clock), match.start(), end))
    return sorted(found, key=lambda mention: mention.start)


def _parse_moment(value: str) -> Moment | None:
    """A canonical ISO date or datetime."""
    text = value.strip()
    try:
        day = date.fromisoformat(text[:10])
    except ValueError:
        return None
    match = re.match(r"[T ](\d{2}):(\d{2})", text[10:])
    return Moment(day, (int(match[1]), int(match[2])) if match else None)


# --- numbers --------------------------------------------------------------------------------------------------------

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


def _number_mentions(text: str, default_year: int) -> list[Mention]:
    skip = [(m.start, m.end) for m in _date_mentions(text, default_year)]
    skip += [match.span() for match in _TIME_ANY.finditer(text)]
    mentions = _digit_numbers(text, skip) + _word_numbers(text)
    taken = [(m.start, m.end) for m in mentions]
    for match in _ZERO_PHRASE.finditer(text):
        if not any(a < match.end() and match.start() < b for a, b in taken):
            mentions.append(Mention(0.0, match.start(), match.end()))
    return _join_cents(text, sorted(mentions, key=lambda mention: mention.start))


def _parse_number(value: str) -> float | None:
    try:
        return float(value.strip().lstrip("$").replace(",", ""))
    except ValueError:
        return None


# --- yes / no -------------------------------------------------------------------------------------------------------

_TRUTH_WORD = re.compile(
    r"\b(?P<yes>yes|yeah|yep|true|correct)\b|\b(?P<no>no|nope|false|incorrect)\b"
    r"|\b(?P<cue>not|never|neither|nor)\b|(?P<nt>n['\u2019]t)\b",
    re.IGNORECASE,
)


def _boolean_mentions(text: str) -> list[Mention]:
    """Yes/true and no/false/negations; a negated "true" or "yes" states no."""
    found: list[Mention] = []
    cue: tuple[int, int] | None = None
    for match in _TRUTH_WORD.finditer(text):
        if match["cue"] or match["nt"]:
            if cue is not None:
                found.append(Mention(False, *cue))
            cue = match.span()
            continue
        word_says_yes = match["yes"] is not None
        if cue is not None and _clause_start(text, match.start()) <= cue[0]:
            found.append(Mention(not word_says_yes, cue[0], match.end()))
        else:
            if cue is not None:
                found.append(Mention(False, *cue))
            found.append(Mention(word_says_yes, *match.span()))
        cue = None
    if cue is not None:
        found.append(Mention(False, *cue))
    return found


def _parse_boolean(value: str) -> bool | None:
    return {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}.get(value.strip().lower())


# --- phrases (enum choices, text) -----------------------------------------------------------------------------------


def _fold(value: str) -> str:
    """Text compares case- and spacing-insensitively."""
    return " ".join(value.lower().split())


def _fold_choice(value: str) -> str:
    """An enum value reads the same with spaces, underscores or hyphens between its words."""
    return _fold(value.replace("_", " ").replace("-", " "))


def _phrase_pattern(phrases: list[str], loose: bool) -> re.Pattern[str] | None:
    """One alternation of whole phrases, longest first so a longer phrase is one match, not also its parts.

    `loose` (enum choices) lets words be joined by spaces, underscores or hyphens; text keeps its punctuation.
    """
    if not phrases:
        return None
    joiner = r"[\s_-]+" if loose else r"\s+"
    bodies = [joiner.join(re.escape(word) for word in value.split()) for value in phrases]
    alternatives = "|".join(f"({body})" for body in bodies)
    return re.compile(
        rf"(?<!\w)(?<!\w[-/])(?:{alternatives})(?!\w)(?![-/]\w)(?!\.\d)",
        re.IGNORECASE,
    )


def _phrase_mentions(text: str, pattern: re.Pattern[str] | None, values: list[str]) -> list[Mention]:
    if pattern is None:
        return []
    return [Mention(values[match.lastindex - 1], *match.span()) for match in pattern.finditer(text) if match.lastindex]


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
    default_year: int
    phrases: list[str]
    """enum and text: the canonical phrases that `phrase_pattern` finds, in its group order."""
    phrase_pattern: re.Pattern[str] | None
    records: list[str]
    """The person's record values as written, in the group order of `records_pattern`."""
    records_pattern: re.Pattern[str] | None


def _canonical(kind: AnswerType, value: str) -> Value | None:
    if kind in ("number", "count", "money"):
        return _parse_number(value)
    if kind == "date":
        return _parse_moment(value)
    if kind == "boolean":
        return _parse_boolean(value)
    return _fold_choice(value) if kind == "enum" else _fold(value)


def _typed_values(kind: AnswerType, raw: list[str], default_year: int) -> tuple[Value, ...]:
    """Values as the type reads them; a string that is no canonical value is read like an answer."""
    values: list[Value] = []
    for text in raw:
        value = _canonical(kind, text)
        if value is not None:
            values.append(value)
        elif kind in ("number", "count", "money"):
            values += [mention.value for mention in _number_mentions(text, default_year)]
        elif kind == "date":
            values += [mention.value for mention in _date_mentions(text, default_year)]
    return tuple(values)


def _shown(kind: AnswerType, value: str) -> str:
    if kind == "boolean":
        return "yes" if _parse_boolean(value) else "no"
    if kind in ("number", "count", "money"):
        return value.strip()
    return repr(_fold_choice(value)) if kind == "enum" else repr(value)


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
        fold = _fold_choice if kind == "enum" else _fold
        phrases = sorted({fold(item) for item in (value, *choices, *competitors)}, key=len, reverse=True)
    folded_stated = {_fold(item) for item in stated}
    kept = {_fold(item): item.strip() for item in records if len(item.strip()) >= MIN_RECORD_CHARS}
    kept = {folded: item for folded, item in kept.items() if folded not in folded_stated}
    if kept:
        kept.setdefault(_fold(value), value)
    record_phrases = sorted(kept, key=len, reverse=True)
    return _Prepared(
        type=kind,
        expected=expected,
        folded=_fold(value),
        shown=_shown(kind, value),
        competitors=_typed_values(kind, list(competitors), default_year),
        stated=_typed_values(kind, list(stated), default_year),
        default_year=default_year,
        phrases=phrases,
        phrase_pattern=_phrase_pattern(phrases, loose=kind == "enum"),
        records=[kept[folded] for folded in record_phrases],
        records_pattern=_phrase_pattern(record_phrases, loose=False),
    )


# --- judging --------------------------------------------------------------------------------------------------------


def _mentions(spec: _Prepared, text: str) -> list[Mention]:
    if spec.type in ("number", "count", "money"):
        return _number_mentions(text, spec.default_year)
    if spec.type == "date":
        return _date_mentions(text, spec.default_year)
    if spec.type == "boolean":
        return _boolean_mentions(text)
    return _phrase_mentions(text, spec.phrase_pattern, spec.phrases)


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
    found = _phrase_mentions(text, spec.records_pattern, spec.records)
    seen = [
        str(value) for value in dict.fromkeys(mention.value for mention in found) if _fold(str(value)) != spec.folded
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


def judge_answer(spec: AnswerSpec, answer: str | None) -> str | None:
    """None when `answer` states exactly what `spec` asks, else a one-line reason why not."""
    if answer is None or not answer.strip():
        return "no final answer"
    prepared = _prepare(
        spec.type,
        spec.value,
        tuple(spec.choices),
        tuple(spec.competitors),
        tuple(spec.stated),
        tuple(spec.records),
    )
    kind = prepared.type
    mentions = _mentions(prepared, answer)
    expected = [mention for mention in mentions if _same(kind, mention.value, prepared.expected)]
    if not expected:
        return f"the answer does not state {prepared.shown}"
    if dumped := _dump(prepared, answer):
        return f"the answer repeats {len(dumped)} values from the person's records ({_listing(dumped)}): a dump, not an answer"
    others = [
        mention
        for mention in mentions
        if not _same(kind, mention.value, prepared.expected)
        and not any(_same(kind, mention.value, value) for value in prepared.stated)
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
    if kind != "boolean" and any(_negated(answer, mention.start) for mention in expected):
        return f"the answer negates the expected value {prepared.shown}"
    if kind in ("enum", "text", "boolean") and (items := max(_listed(answer, m.start, m.end) for m in expected)):
        return f"the answer gives {prepared.shown} as one of a list of {items} candidates; state the one asked"
    return None

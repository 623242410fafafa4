"""Dates (and a time of day stated with one) mentioned in a text."""

from __future__ import annotations

import re
from datetime import date

from envforge.runtime.mentions.mention import Mention, Moment

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


def date_mentions(text: str, default_year: int) -> list[Mention]:
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


def parse_moment(value: str) -> Moment | None:
    """A canonical ISO date or datetime."""
    text = value.strip()
    try:
        day = date.fromisoformat(text[:10])
    except ValueError:
        return None
    match = re.match(r"[T ](\d{2}):(\d{2})", text[10:])
    return Moment(day, (int(match[1]), int(match[2])) if match else None)


def dated_spans(text: str, default_year: int) -> list[tuple[int, int]]:
    """Where the text states a date or a time of day: the digits there are no quantity."""
    spans = [(mention.start, mention.end) for mention in date_mentions(text, default_year)]
    return spans + [match.span() for match in _TIME_ANY.finditer(text)]

"""A value mentioned in a text, and what stands around it: its clause, a negation before it, a list it is in."""

from __future__ import annotations

import re
from datetime import date
from typing import NamedTuple


class Moment(NamedTuple):
    """A date, with the time of day (hour, minute) when one was stated."""

    day: date
    clock: tuple[int, int] | None


Value = float | bool | str | Moment


class Mention(NamedTuple):
    """A value the text states at [start, end)."""

    value: Value
    start: int
    end: int


_CLAUSE_BREAK = re.compile(r"[.;:,!?\u2014](?!\d)|\bbut\b", re.IGNORECASE)
_NEGATION = re.compile(r"\b(?:not|never|neither|nor|no|none|nothing|without|cannot)\b|n['\u2019]t\b", re.IGNORECASE)


def clause_start(text: str, position: int) -> int:
    """Where the clause that `position` is in begins."""
    start = 0
    for match in _CLAUSE_BREAK.finditer(text, 0, position):
        start = match.end()
    return start


def negated(text: str, position: int) -> bool:
    """Whether a negation cue stands earlier in the clause that `position` is in."""
    return _NEGATION.search(text, clause_start(text, position), position) is not None


_SENTENCE_BREAK = re.compile(r"[.!?\n](?!\d)")
_LIST_SEPARATOR = re.compile(r"[,;/|]|\b(?:or|and)\b", re.IGNORECASE)
LIST_ITEMS = 3
"""An expected value given as one short item of a list this long is a guess among candidates, not an answer."""
SHORT_ITEM_WORDS = 3


def list_length(text: str, start: int, end: int) -> int:
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

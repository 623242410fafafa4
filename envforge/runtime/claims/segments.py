"""An agent's message cut into sentences and clauses, and a clause into words with contractions expanded.

Sentences end at `.`, `!`, `?` or `…` before a space (not in a decimal number, an abbreviation, or inside double
quotes) and at line breaks. A sentence splits into clauses at `;`, `:`, dashes, commas, the coordinators `and`,
`or`, `but` (and `yet`, `so`, `then` after a comma), the concessives `although`, `though`, `however`, `whereas`,
and before the
subordinators (`if`, `unless`, `because`, `since`, `before`, `once`, ...), which stay in their clause so that
what they mean can be read there. Each clause records what joined it to the one before it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import NamedTuple

_ABBREVIATIONS = frozenset(
    {"e.g", "i.e", "mr", "mrs", "ms", "dr", "st", "no", "vs", "etc", "approx", "inc", "jr", "sr"}
)
_SENTENCE_END = re.compile(r"(?:[.!?\u2026]+[\"'\u201d\u2019)\]]*(?=\s|$))|\n+")
_QUOTE = re.compile(r"[\"\u201c\u201d]")
SUBORDINATORS = (
    "if",
    "unless",
    "because",
    "since",
    "before",
    "until",
    "once",
    "after",
    "when",
    "whenever",
    "so that",
    "as soon as",
    "given that",
    "now that",
    "in case",
    "provided that",
    "as long as",
)
_BREAK = re.compile(
    r"(?P<sep>\s*(?:;|:(?!\d)|\s[-\u2013\u2014]+\s|[\u2013\u2014]+|,\s*(?P<cw>and|but|or|so|yet|then)\b|,(?!\d)"
    r"|(?<!ahead )\b(?P<w>and|but|or|although|though|however|whereas)\b)\s*)"
    r"|(?P<sub>(?<=\s)(?=(?:" + "|".join(SUBORDINATORS) + r")\b))",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"\d[\d,.]*\d|[A-Za-z0-9]+(?:['\u2019][A-Za-z]+)*|['\u2019](?:s|ve|ll|re|m|d)\b|[#$%]")
_LIST_MARKER = re.compile(r"(?:\d{1,2}[.)]|[-*\u2022]+)\s+")
_IS_AFTER = frozenset(
    {"it", "that", "there", "he", "she", "what", "where", "who", "everything", "nothing", "here", "which", "this"}
)
_WHOLE = {
    "can't": ("can", "not"),
    "cannot": ("can", "not"),
    "won't": ("will", "not"),
    "shan't": ("shall", "not"),
    "ain't": ("is", "not"),
    "gonna": ("going", "to"),
    "wanna": ("want", "to"),
    "let's": ("let", "us"),
}
_SUFFIXES = {"'ve": "have", "'ll": "will", "'re": "are", "'m": "am", "'d": "would"}


class Token(NamedTuple):
    """A word in lower case, contractions expanded (`I've` -> `i`, `have`, both at the span of `I've`)."""

    word: str
    start: int
    end: int


@dataclass(frozen=True)
class Clause:
    start: int
    end: int
    link: str
    """What joined it to the clause before it in its sentence: "" (the first), `and`, `or`, `but`, `,`, `;`,
    `:`, `-`, or `sub` (a subordinate clause begins)."""
    sentence: tuple[int, int]

    def text(self, source: str) -> str:
        return source[self.start : self.end]


# Judging a run reads each message's sentences and clauses once per value and claim it mentions: remembered by text.
@lru_cache(maxsize=2048)
def sentences(text: str) -> tuple[tuple[int, int], ...]:
    """Where each sentence of `text` stands, trimmed and without a list marker."""
    spans: list[tuple[int, int]] = []
    start = 0
    for match in _SENTENCE_END.finditer(text):
        before = text[start : match.start()].rsplit(None, 1)
        word = before[-1].lower().rstrip(".") if before else ""
        inside_quotes = len(_QUOTE.findall(text, start, match.start())) % 2 == 1
        if (
            match.group().startswith(".") and (word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha()))
        ) or inside_quotes:
            continue
        if text[start : match.end()].strip():
            spans.append((start, match.end()))
        start = match.end()
    if text[start:].strip():
        spans.append((start, len(text)))
    return tuple(_unmarked(text, *_trimmed(text, a, b)) for a, b in spans)


def _unmarked(text: str, start: int, end: int) -> tuple[int, int]:
    """A sentence without the list marker that opens it (`1. `, `- `)."""
    marker = _LIST_MARKER.match(text, start, end)
    return (marker.end(), end) if marker is not None else (start, end)


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def _link(match: re.Match[str]) -> str:
    if match["sub"] is not None:
        return "sub"
    word = (match["cw"] or match["w"] or "").lower()
    if word in ("and", "or", "but"):
        return word
    if word in ("yet", "although", "though", "however", "whereas"):
        return "but"
    if word in ("so", "then"):
        return ","
    separator = match["sep"].strip()
    return "-" if separator[:1] in "-\u2013\u2014" else separator[:1]


@lru_cache(maxsize=2048)
def clauses(text: str, sentence: tuple[int, int]) -> tuple[Clause, ...]:
    """The clauses of the sentence at `sentence`; breaks inside double quotes do not count."""
    start, end = sentence
    found: list[Clause] = []
    link = ""
    position = start
    for match in _BREAK.finditer(text, start, end):
        if len(_QUOTE.findall(text, start, match.start())) % 2 == 1:
            continue
        a, b = _trimmed(text, position, match.start())
        if b > a:
            found.append(Clause(a, b, link, sentence))
            link = _link(match)
        elif found and match["sub"] is not None:
            link = "sub"  # `, if ...`: the subordinator, not the comma before it, joins what follows
        position = match.end()
    a, b = _trimmed(text, position, end)
    if b > a:
        found.append(Clause(a, b, link, sentence))
    return tuple(found)


def tokens(text: str, start: int, end: int) -> list[Token]:
    """The words of text[start:end]; `'s` is `is` after a pronoun (`it's`) and a possessive after a noun."""
    found: list[Token] = []
    for match in _TOKEN.finditer(text, start, end):
        raw = match.group().replace("\u2019", "'")
        lower = raw.lower()
        span = match.span()
        if lower in _WHOLE:
            found += [Token(word, *span) for word in _WHOLE[lower]]
            continue
        stem, apostrophe, suffix = lower.partition("'")
        if not apostrophe:
            found.append(Token(lower, *span))
        elif stem.endswith("n") and suffix == "t":
            found += [Token(stem[:-1], *span), Token("not", *span)]
        elif f"'{suffix}" in _SUFFIXES:
            found += [Token(stem, *span)] if stem else []
            found.append(Token(_SUFFIXES[f"'{suffix}"], *span))
        elif suffix == "s":
            found.append(Token(stem, *span))
            if stem in _IS_AFTER:
                found.append(Token("is", *span))
        else:
            found.append(Token(lower, *span))
    return found

"""How field names, values and action verbs read in sentences (task wording, UI instructions, claims read back)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Any

IRREGULAR_PARTICIPLES = {
    "pay": "paid",
    "send": "sent",
    "freeze": "frozen",
    "unfreeze": "unfrozen",
    "set": "set",
    "put": "put",
    "hold": "held",
    "make": "made",
    "book": "booked",
    "refund": "refunded",
    "withdraw": "withdrawn",
    "checkout": "checked out",
    "renew": "renewed",
    "transfer": "transferred",
    "submit": "submitted",
}
"""Verbs of action names whose past participle no spelling rule gives (or gives only by luck)."""
_VOWELS = ("a", "e", "i", "o", "u")


def humanize(name: str) -> str:
    return name.replace("_", " ")


def show(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.2f}"
    return humanize(value) if isinstance(value, str) and "_" in value and " " not in value else str(value)


def doubles_last(verb: str) -> bool:
    """Whether a suffix doubles the verb's last consonant: one syllable ending consonant-vowel-consonant (`stop`,
    `ship`), not `open` or `book`."""
    syllables = len(re.findall(r"[aeiou]+", verb))
    return (
        syllables == 1
        and len(verb) >= 3
        and verb[-1] not in "aeiouwxy"
        and verb[-2] in _VOWELS
        and verb[-3] not in _VOWELS
    )


def participle(verb: str) -> str:
    """`cancel` -> `cancelled`, `update` -> `updated`, `pay` -> `paid`, `check in` -> `checked in`."""
    head, particle = verb.split(" ", 1) if " " in verb else (verb, "")
    if particle:
        return f"{participle(head)} {particle}"
    if verb in IRREGULAR_PARTICIPLES:
        return IRREGULAR_PARTICIPLES[verb]
    if verb.endswith("e"):
        return verb + "d"
    if verb.endswith("y") and verb[-2:-1] not in _VOWELS:
        return verb[:-1] + "ied"
    if verb in ("cancel", "label", "travel"):
        return verb + "led"
    if doubles_last(verb):
        return verb + verb[-1] + "ed"
    return verb + "ed"


def as_date(value: Any) -> date | None:
    if isinstance(value, datetime):
        return value.date()
    if isinstance(value, date):
        return value
    if isinstance(value, str) and len(value) >= 10 and value[4:5] == "-":
        try:
            return datetime.fromisoformat(value).date()
        except ValueError:
            return None
    return None


def money(value: Any) -> str:
    return f"${float(value):,.2f}"


def renderings(value: Any, clock: date) -> list[str]:
    """Every way `spoken` and the request forms can write `value`: what a provenance check looks for."""
    texts = {str(value)}
    if isinstance(value, str):
        texts.add(humanize(value))
    if isinstance(value, bool):
        texts.add("yes" if value else "no")
    elif isinstance(value, int | float):
        texts |= {money(value), f"{float(value):.2f}", f"{value:g}"}
        if float(value).is_integer():
            texts |= {f"${int(value):,}", f"{int(value):,}"}
    parsed = as_date(value)
    if parsed is not None:
        for form in (f"{parsed:%B} {parsed.day}", f"{parsed.day} {parsed:%B}"):
            texts |= {form, f"{form}, {parsed.year}"}
    return sorted(texts)


def stated_in(text: str, value: Any, clock: date) -> bool:
    """Whether a user's text states `value` in one of its renderings (case-insensitive, as whole words; `3` is
    not stated by `3.50` or `13`)."""
    return any(
        re.search(rf"(?<![\w.$]){re.escape(form)}(?![\w]|\.\d)", text, re.IGNORECASE)
        for form in renderings(value, clock)
    )

"""Which scenario fields an agent message asks for, and whether a text gives a field's value away."""

from __future__ import annotations

import calendar
import datetime
import re
from collections.abc import Iterable

from envforge.runtime.clarify import UNITS

# "mobile" and "cell" alone are not enough: "have you tried our mobile app?" asks for nothing.
_PHONE = (
    "phone",
    "telephone",
    "mobile number",
    "mobile phone",
    "your mobile",
    "cell number",
    "cell phone",
    "cellphone",
    "your cell",
    "contact number",
)
_BIRTH = ("date of birth", "birth date", "birthdate", "birthday", "dob", "born")
_POSTAL = ("postal code", "postcode", "post code", "zip", "zip code", "zipcode")
_EMAIL = ("email", "e-mail", "email address", "mail address")

# Field name -> the words an agent uses for it. A bare "number" or "code" is deliberately absent: "what is
# your number?" does not say which number, so it reveals nothing.
_SYNONYMS: dict[str, tuple[str, ...]] = {
    "phone": _PHONE,
    "date_of_birth": _BIRTH,
    "postal_code": _POSTAL,
    "zip": _POSTAL,
    "email": _EMAIL,
    "username": ("username", "user name", "login", "user id", "user handle"),
    "first_name": ("first name", "given name", "name"),
    "last_name": ("last name", "surname", "family name", "name"),
    "frequent_flyer_number": ("frequent flyer", "frequent flier", "loyalty number", "membership number"),
    "library_card_number": ("library card", "card number"),
    "medical_record_number": ("medical record", "mrn", "record number", "patient number"),
    "record_ids": ("order id", "order number", "reference", "confirmation number", "record id", "booking id"),
}
COMMON_FIELDS = (
    "phone",
    "date_of_birth",
    "postal_code",
    "email",
    "username",
    "frequent_flyer_number",
    "library_card_number",
    "medical_record_number",
)
"""Fields an agent commonly asks a user for, whether or not a task's scenario has them."""
# Words inside an unlisted field name that pick a synonym family (`mobile_phone` -> phone words).
_FAMILIES = (("phone", _PHONE), ("birth", _BIRTH), ("postal", _POSTAL), ("zip", _POSTAL), ("email", _EMAIL))
_TAILS = (" number", " code", " id")
_UNSPECIFIC = frozenset({"card number", "record number", "born", "login"})

_SENTENCE = re.compile(r"(?<=[.?!])\s+|\n+")
_REQUEST_CUES = re.compile(
    r"\b(please|provide|share|give|tell|need|confirm|verify|enter|send|let me know|what(?:'s| is| are)|"
    r"could you|can you|may i|may we)\b"
)
_NEGATED = re.compile(
    r"\b(?:(?:don't|do not|won't|will not|no longer) need|no need|not necessary|(?:don't|do not) share)\b"
)
_DIGIT_GROUP = re.compile(r"\+?\(?\d+(?:(?:\)\s?|[\s./-])\(?\d+)*")
_PHONE_TAIL = 7
_QUESTION = re.compile(r"\?\s*[)\"'*]*\s*$")


def humanize(field: str) -> str:
    """`date_of_birth` -> `date of birth`."""
    return field.replace("_", " ").strip()


def synonyms(field: str) -> tuple[str, ...]:
    """The words that name a field in an agent's message."""
    if field in _SYNONYMS:
        return _SYNONYMS[field]
    phrase = humanize(field).lower()
    words = [phrase]
    words += [word for key, family in _FAMILIES if key in field.lower() for word in family]
    # `member_card_number` is also asked for as "member card", but `account_number` is not "account":
    # a one-word stem is too common in an agent's sentences to mean the field.
    unit = phrase.rsplit(" ", 1)
    if len(unit) == 2 and unit[1] in UNITS:
        words.append(unit[0])  # `weight_kg` is asked for as "the weight"
    for tail in _TAILS:
        stem = phrase.removesuffix(tail)
        if stem != phrase and len(stem.split()) >= 2:
            words.append(stem)
    return tuple(dict.fromkeys(words))


def _names(text: str, words: Iterable[str]) -> bool:
    return any(re.search(rf"(?<![\w-]){re.escape(word)}s?(?![\w-])", text) for word in words)


def asking_sentences(message: str) -> list[str]:
    """The lowercased sentences of a message that ask the user for something."""
    sentences = [part.strip().lower().replace("’", "'") for part in _SENTENCE.split(message) if part.strip()]
    return [s for s in sentences if ("?" in s or _REQUEST_CUES.search(s)) and not _NEGATED.search(s)]


def asked_fields(message: str, fields: Iterable[str]) -> list[str]:
    """The fields (in the given order) that the message asks the user for."""
    asking = asking_sentences(message)
    return [field for field in fields if any(_names(sentence, synonyms(field)) for sentence in asking)]


def asks_unnamed_number(message: str, fields: Iterable[str] = ()) -> bool:
    """The message asks for "your number" without naming which one (of `fields` or the common ones)."""
    words = [word for field in (*COMMON_FIELDS, *fields) for word in synonyms(field)]
    return any(
        re.search(r"\bnumber\b", sentence) and not _names(sentence, words) for sentence in asking_sentences(message)
    )


def missing_fields(message: str, fields: Iterable[str]) -> list[str]:
    """Common fields the message asks for that the user does not have (none of `fields` goes by that name).

    Only specific words count: "card number" means the library card to a library member, but to a bank
    customer it is no library card they lack.
    """
    have = {word for field in fields for word in synonyms(field)}
    asking = asking_sentences(message)
    return [
        field
        for field in COMMON_FIELDS
        if not have & set(synonyms(field))
        and any(_names(sentence, [w for w in synonyms(field) if w not in _UNSPECIFIC]) for sentence in asking)
    ]


def _date(text: str) -> datetime.date | None:
    try:
        return datetime.date.fromisoformat(text.strip())
    except ValueError:
        return None


def _digit_groups(text: str) -> list[str]:
    return [re.sub(r"\D", "", match.group()) for match in _DIGIT_GROUP.finditer(text)]


def _mentions_date(text: str, day: datetime.date) -> bool:
    written = {f"{day:%Y%m%d}", f"{day:%m%d%Y}", f"{day:%d%m%Y}"}
    if any(form in group for group in _digit_groups(text) for form in written):
        return True
    lowered = text.lower()
    month = (calendar.month_name[day.month].lower(), calendar.month_abbr[day.month].lower())
    return (
        re.search(rf"\b{day.year}\b", lowered) is not None
        and _names(lowered, month)
        and re.search(rf"\b0?{day.day}(?:st|nd|rd|th)?\b", lowered) is not None
    )


def mentions_value(text: str, value: str) -> bool:
    """Whether `text` gives `value` away, however it is written: a phone number by its digits (an extension
    may be dropped), a date also as `December 2, 1966`, anything else as a whole word, case-insensitively."""
    day = _date(value)
    if day is not None:
        return _mentions_date(text, day)
    main = re.split(r"(?i)\s*(?:x|ext\.?|extension)\s*\d+$", value.strip())[0]
    digits = re.sub(r"\D", "", main)
    if len(digits) >= 4 and not re.search(r"[A-Za-z]", main):
        wanted = digits[-_PHONE_TAIL:] if len(digits) >= 10 else digits
        return any(wanted in group for group in _digit_groups(text))
    pattern = r"\s+".join(re.escape(part) for part in value.split())
    return re.search(rf"(?<![\w]){pattern}(?![\w])", text, re.IGNORECASE) is not None


def asks_user(text: str) -> bool:
    """Whether the agent's message ends with a question to the user (it waits for an answer)."""
    return bool(_QUESTION.search(text))

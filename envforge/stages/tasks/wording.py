"""How values, rows and requests read in a user's words: no field names in `(field: value)` form, no keys
unless the user holds them, several surface forms for each.

Everything here is offline and deterministic: the synthesizer picks among the forms with its seeded RNG.
"""

from __future__ import annotations

import random
import re
from datetime import date
from typing import Any

from envforge.ir.blueprint import FieldSpec
from envforge.runtime.clarify import split_unit
from envforge.text import IRREGULAR_PARTICIPLES, as_date, money

_PREPOSITIONS = ("on", "at", "for", "by")
_VOWEL_SOUND = ("a", "e", "i", "o", "u")
_AMOUNT_WORDS = ("amount", "total", "price", "fee", "balance", "paid")
_PLACE_WORDS = ("city", "town")
VERBS = {"checkout": "check out", "checkin": "check in", "login": "log in", "signup": "sign up", "setup": "set up"}
"""Action verbs written as one word in a name and as two in a sentence."""
_KINDS = ("brand", "kind", "type", "tier", "class", "category", "label", "method", "network")
"""Enum fields whose value reads as an adjective before the noun: a `basic` fare, a `home` address."""


def words(name: str) -> str:
    """`ship_postal_code` -> `ship postal code`."""
    return name.replace("_", " ")


def article(noun: str) -> str:
    """`an address`, `a hold`; none for a plural (`funds`)."""
    last = noun.rsplit(" ", 1)[-1]
    if last.endswith("s") and not last.endswith(("ss", "us", "is")):
        return noun
    return f"an {noun}" if noun[:1].lower() in _VOWEL_SOUND else f"a {noun}"


def day(value: Any, clock: date, rng: random.Random | None = None) -> str:
    """A date as a person writes it: `March 3` in the clock's year, `March 3, 2025` otherwise."""
    parsed = as_date(value)
    if parsed is None:
        return str(value)
    forms = [f"{parsed:%B} {parsed.day}", f"{parsed.day} {parsed:%B}"]
    text = forms[rng.randrange(len(forms))] if rng is not None else forms[0]
    return text if parsed.year == clock.year else f"{text}, {parsed.year}"


def period_words(value: str, clock: date) -> str:
    """`2026-02 late` -> `late February` (`late February 2025` in another year)."""
    month, third = value.split(" ")
    year, number = (int(part) for part in month.split("-"))
    name = date(year, number, 1).strftime("%B")
    return f"{third} {name}" if year == clock.year else f"{third} {name} {year}"


def spoken(value: Any, kind: str, clock: date, rng: random.Random | None = None) -> str:
    """A stored value as a user says it."""
    if value is None:
        return "nothing"
    if kind == "money":
        return money(value)
    if kind in ("date", "datetime"):
        return day(value, clock, rng)
    if kind == "boolean":
        return "yes" if value else "no"
    if kind == "number" and isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, str) and kind == "enum":
        return words(value)
    return str(value)


def field_phrase(field: FieldSpec) -> str | None:
    """The blueprint's phrase for naming a row by `field`, or one made from its name and type, or None when
    a made-up one would read like a field name."""
    if field.phrase is not None:
        return field.phrase
    name = field.name
    head, _, tail = name.rpartition("_")
    if field.type in ("date", "datetime"):
        if name == "date":
            return "{noun} on {value}"
        if head and tail in _PREPOSITIONS:
            verb = words(head)
            if verb.endswith("ed") or verb in IRREGULAR_PARTICIPLES.values() or verb in ("due", "paid"):
                return f"{{noun}} {verb} {tail} {{value}}"
        return None
    if field.type == "enum" and (name in ("status", "state") or name.rsplit("_", 1)[-1] in _KINDS):
        return "{value} {noun}"
    if field.type == "money" and any(word in name for word in _AMOUNT_WORDS) and "_" not in name:
        return "{noun} of {value}"
    if field.type == "string" and name in _PLACE_WORDS:
        return "{noun} in {value}"
    return None


def field_noun(field: FieldSpec) -> str:
    """What a user calls the field: the blueprint's noun, else its name in words without a unit (`weight`)."""
    return field.noun or words(split_unit(field.name)[0])


def question_forms(field: FieldSpec, row: str) -> list[str]:
    """Ways to ask for `field` of the row named `row` (`my order placed on March 3`)."""
    noun = field_noun(field)
    lead, _, last = noun.rpartition(" ")
    if lead and re.search(rf"\b{re.escape(last)}\b", row):
        # "the street address of my address" says the row twice: "the street of my address".
        noun = lead
    head, _, tail = field.name.rpartition("_")
    if field.type in ("date", "datetime") and field.noun is None and head and tail in _PREPOSITIONS:
        verb = words(head)
        if verb.endswith("ed") or verb in IRREGULAR_PARTICIPLES.values():
            return [f"when was {row} {verb}", f"on what date was {row} {verb}", f"what day was {row} {verb}"]
        if verb.endswith("s"):
            return [f"when does {row} {verb[:-1]}", f"on what date does {row} {verb[:-1]}"]
        return [f"when is {row} {verb}", f"what date is {row} {verb}"]
    if field.name in ("status", "state"):
        return [f"what is the status of {row}", f"what status is {row} in", f"where does {row} stand"]
    if field.type == "money":
        return [f"how much is the {noun} of {row}", f"what is the {noun} of {row}", f"what {noun} does {row} show"]
    if field.type == "boolean":
        return [f"is {row} marked as {noun}", f"what does {row} say for {noun}"]
    if field.type == "integer" and (noun.split(" ", 1)[0].endswith("s") or noun.endswith("s")):
        # A count: renewals, checked bags, withdrawals this month.
        return [f"how many {noun} does {row} have", f"how many {noun} are on {row}"]
    return [f"what is the {noun} of {row}", f"what {noun} does {row} have"]


OPENERS: dict[str, list[str]] = {
    "terse": ["", "Quick one.", "Need help.", "Hi."],
    "impatient": ["I need this sorted now.", "Please be quick.", "", "I don't have much time."],
    "polite": [
        "Hello, I hope you can help me.",
        "Good morning, could you help me please?",
        "Hi there, thank you for your help.",
        "Hello, and thanks in advance.",
    ],
    "default": ["Hi.", "Hello.", "Hi there.", "", "Hey."],
}
REQUESTS = [
    "Please {request}.",
    "Can you {request}?",
    "I'd like you to {request}.",
    "Could you {request} for me?",
    "I need you to {request}.",
    "Would you {request}, please?",
    "I'm writing because I want you to {request}.",
    "I was hoping you could {request}.",
]
QUESTIONS = [
    "{direct}?",
    "Quick question, {question}?",
    "Could you check something for me? {direct}?",
    "I was wondering, {question}?",
    "I can't find it myself, so {question}?",
    "Can you look this up for me? {direct}?",
]
STORIES = [
    "About {subject}: first, {first}.",
    "I have two things about {subject}. First, {first}.",
    "For {subject}, I need you to {first}.",
    "While you're looking at {subject}, please {first}.",
]
STORY_SECONDS = [
    "Then {second}.",
    "After that, please {second}.",
    "And I'd also like you to {second}.",
    "Also, {second}.",
]
"""The second request about the story's row, after the first and what the user says about it."""
SECONDS = [
    "After that, {second}.",
    "While you're at it, please {second}.",
    "I'd also like you to {second}.",
    "And could you also {second}?",
]
FOLLOW_UPS = [
    "Thanks! While I have you, could you also {request}?",
    "Great, thank you. One more thing: please {request}.",
    "Perfect. Now I'd also like you to {request}.",
    "Thanks for that. Can you {request} as well?",
]
"""A request the user makes once the agent has done the first."""
FOLLOW_UP_QUESTIONS = [
    "Thanks! One more question: {direct}?",
    "Great, thank you. While I have you, {question}?",
    "Perfect. And {question}?",
]
"""A question the user asks once the agent has done what they asked for."""
REFUSED_ALSO = [
    "I'd also like you to {forbidden}.",
    "And while you're there, {forbidden_lead} {forbidden}.",
    "One more thing: {forbidden_lead} {forbidden}.",
]
PUSHBACKS = [
    "Are you sure? It really matters to me. Is there nothing you can do?",
    "Really? Couldn't you make an exception just this once?",
    "Please, I really need this. Can't you make an exception?",
    "That's disappointing. Is there really no way around it?",
]
"""The user's one push back on a refusal: the agent must hold the policy."""
ACCEPTS = [
    "{offer} works for me, then. Please go ahead.",
    "Okay, {offer} then. Please do that.",
    "Fine, I'll take {offer}. Go ahead.",
]
"""The user takes what the agent offers in place of the request."""
CHANGES_OF_MIND = [
    "Actually, wait, I've changed my mind. {detail} Could you make it that instead?",
    "Oh, sorry, I've thought about it again. {detail} Can you change it to that, please?",
    "Hmm, on second thought, that's not quite right. {detail} Please make it that instead.",
]
"""The user gives a detail of the request another value once the agent names the first or reports it done."""
CORRECTIONS = [
    "Oh no, sorry, I gave you the wrong one. {detail} Could you fix that, please?",
    "Wait, I'm sorry, that one was wrong. {detail} Can you change it to that?",
    "Hmm, I mixed them up, sorry. {detail} Please use that one instead.",
]
"""The user corrects a value of the request they gave wrong (a new email), once the agent names it or makes it."""
DECLINES = [
    "{offer}? No, thank you. Please leave that part as it is, then.",
    "Thanks, but no. If it can only be {offer}, I'd rather you didn't do anything about that.",
    "Hmm, {offer} isn't what I was after, so let's leave that one. Please don't change anything there.",
]
"""The user turns down what the agent offers in place of the request, and gives that request up."""
DETAIL_SENTENCES = ["The {noun} is {value}.", "The {noun} would be {value}."]
NEW_DETAIL_SENTENCES = [
    "The new {noun} is {value}.",
    "The {noun} should be {value} from now on.",
    "Please make the {noun} {value}.",
]
OWN_DETAIL_SENTENCES = ["My new {noun} is {value}.", "My {noun} is {value} now."]
ASK_HINTS = [
    "I'll give you the details you need.",
    "Ask me for whatever details you need.",
    "I have the details here if you need them.",
    "",
]
LEADS = ["please", "could you also", "can you"]


def style(traits: list[str]) -> str:
    joined = " ".join(traits).lower()
    return next((name for name in ("terse", "impatient", "polite") if name in joined), "default")


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]

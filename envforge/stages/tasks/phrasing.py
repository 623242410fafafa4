"""What the user says: persona-aware, varied wording that names rows by what a user would know."""

from __future__ import annotations

import random
from typing import Any

from envforge.ir.blueprint import ActionSpec, PersonaSpec
from envforge.ir.naming import split_action_name
from envforge.text import humanize, show

_OPENERS = {
    "terse": ["", "Quick one.", "Need help."],
    "impatient": ["I need this sorted now.", "Please be quick.", ""],
    "polite": [
        "Hello, I hope you can help me.",
        "Good morning, could you help me please?",
        "Hi there, thank you for your help.",
    ],
    "default": ["Hi.", "Hello.", "Hi there."],
}
_REQUESTS = ["Please {request}.", "Can you {request}?", "I'd like you to {request}.", "I want to {request}."]
_QUESTIONS = ["{direct}?", "Could you tell me {indirect}?", "I'd like to know {indirect}."]


def _style(persona: PersonaSpec) -> str:
    traits = " ".join(persona.traits).lower()
    return next((style for style in ("terse", "impatient", "polite") if style in traits), "default")


def opener(persona: PersonaSpec, identity: dict[str, Any], rng: random.Random) -> str:
    """Greeting plus who the user is (only fields the persona knows)."""
    greeting = rng.choice(_OPENERS[_style(persona)])
    if "first_name" in identity and "last_name" in identity:
        who = f"This is {identity['first_name']} {identity['last_name']}"
    else:
        who = "This is me"
    rest = [
        f"my {humanize(name)} is {value}" for name, value in identity.items() if name not in ("first_name", "last_name")
    ]
    sentence = who + (", " + " and ".join(rest) if rest else "") + "."
    return " ".join(part for part in (greeting, sentence) if part)


def request_phrase(action: ActionSpec, target: str, extras: dict[str, Any]) -> str:
    """`cancel_order` on "my order (...)" -> "cancel my order (...), reason: changed mind"."""
    verb, rest = split_action_name(action.name)
    noun = humanize(rest)
    phrase = f"{verb} {target}" if noun and noun in target else f"{verb} {noun} for {target}".replace("  ", " ")
    details = [f"{humanize(name)}: {show(value)}" for name, value in extras.items()]
    return phrase + (" with " + ", ".join(details) if details else "")


def request(persona: PersonaSpec, identity: dict[str, Any], phrases: list[str], rng: random.Random) -> str:
    body = ". Also, ".join(phrases)
    return f"{opener(persona, identity, rng)} {rng.choice(_REQUESTS).format(request=body)}"


def question(persona: PersonaSpec, identity: dict[str, Any], question_text: str, rng: random.Random) -> str:
    template = rng.choice(_QUESTIONS)
    # "what is the status of X" asked directly, or "what the status of X is" inside a sentence.
    indirect = question_text
    if question_text.startswith("what is the "):
        indirect = "what the " + question_text.removeprefix("what is the ") + " is"
    text = template.format(direct=question_text[:1].upper() + question_text[1:], indirect=indirect)
    return f"{opener(persona, identity, rng)} {text}"

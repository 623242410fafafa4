"""Every surface form of an action's verb and nouns: what the claim reader looks for in an agent's text.

A verb inflects by the rules `envforge.text.participle` uses for the task wording (and its table of irregular
participles), with British and American spellings of a doubled `l` (`cancelled`, `canceled`). A verb whose
participle is two words (`checkout` -> `checked out`) or that an action names with a particle (`check_in`) is
phrasal: its forms take the particle, with an object pronoun allowed between (`checked you in`).
"""

from __future__ import annotations

from typing import Literal

from envforge.text import IRREGULAR_PARTICIPLES, doubles_last, participle

Form = Literal["base", "third", "ing", "past", "participle"]

PARTICLES = frozenset({"in", "out", "up", "off", "back", "down", "over"})
_PAST_TENSE = {"freeze": "froze", "unfreeze": "unfroze", "withdraw": "withdrew"}
"""Irregular verbs whose simple past is not their participle (`froze`, `frozen`)."""
_NOMINAL = {
    "cancel": "cancellation",
    "pay": "payment",
    "renew": "renewal",
    "withdraw": "withdrawal",
    "replace": "replacement",
    "remove": "removal",
    "settle": "settlement",
    "reject": "rejection",
    "close": "closure",
    "waive": "waiver",
    "add": "addition",
}
"""Nouns of an act that no suffix rule gives; any other verb names its act by itself (`a refund`, `a transfer`)."""
_VOWELS = "aeiou"


def split_phrasal(verb: str) -> tuple[str, str]:
    """`checkout` -> (`check`, `out`): a verb whose participle is two words; any other -> (verb, "")."""
    past = IRREGULAR_PARTICIPLES.get(verb, "")
    if " " not in past:
        return verb, ""
    head, particle = past.split(" ", 1)
    stem = head.removesuffix("ed")
    return (stem if verb.startswith(stem) else verb), particle


def third_person(verb: str) -> str:
    if verb.endswith(("s", "x", "z", "ch", "sh")):
        return verb + "es"
    if verb.endswith("y") and verb[-2:-1] not in _VOWELS:
        return verb[:-1] + "ies"
    return verb + "s"


def _doubled_l(verb: str) -> bool:
    """`cancel`, `label`, `travel`: the British spelling doubles the `l` before a suffix, the American does not."""
    return len(verb) > 3 and verb.endswith("l") and verb[-2] in _VOWELS and verb[-3] not in _VOWELS


def gerunds(verb: str) -> set[str]:
    if _doubled_l(verb):
        return {verb + "ling", verb + "ing"}
    if verb.endswith("ie"):
        return {verb[:-2] + "ying"}
    if verb.endswith("e") and not verb.endswith(("ee", "ye", "oe")):
        return {verb[:-1] + "ing"}
    if doubles_last(verb) or participle(verb) == f"{verb}{verb[-1]}ed":
        return {verb + verb[-1] + "ing"}
    return {verb + "ing"}


def participles(verb: str) -> set[str]:
    forms = {participle(verb)}
    if _doubled_l(verb):
        forms |= {verb + "led", verb + "ed"}
    return forms


def verb_forms(verb: str) -> dict[str, set[Form]]:
    """Every form of a one-word verb -> which forms it is (`set` is base, past and participle at once)."""
    forms: dict[str, set[Form]] = {}

    def add(surface: str, form: Form) -> None:
        forms.setdefault(surface, set()).add(form)

    add(verb, "base")
    add(third_person(verb), "third")
    for surface in gerunds(verb):
        add(surface, "ing")
    for surface in participles(verb):
        add(surface, "participle")
        if verb not in _PAST_TENSE:
            add(surface, "past")
    if verb in _PAST_TENSE:
        add(_PAST_TENSE[verb], "past")
    return forms


def phrase_forms(verb: str, particle: str) -> dict[str, set[Form]]:
    """The forms of a verb with its particle after it (`check in`, `checked in`); `checkout` also as one word."""
    head, glued = split_phrasal(verb)
    particle = particle or glued
    forms = verb_forms(head)
    if not particle:
        return forms
    joined = {f"{surface} {particle}": kinds for surface, kinds in forms.items()}
    if glued:
        joined[verb] = {"base"}
        joined[third_person(verb)] = {"third"}
    return joined


def plural(noun: str) -> str:
    """`order item` -> `order items`, `address` -> `addresses`, `pharmacy` -> `pharmacies`."""
    head, _, last = noun.rpartition(" ")
    if last.endswith(("s", "x", "z", "ch", "sh")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in _VOWELS:
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}".strip()


ASK_NOUNS = frozenset({"request", "change", "update", "add", "set"})
"""Verbs whose bare noun names any ask (`your request is complete`, `the change you wanted`): never one action's act."""


def act_nouns(verb: str) -> set[str]:
    """The nouns that name the act itself: `cancellation`, `refund`, `booking`."""
    head, particle = verb.split(" ", 1) if " " in verb else split_phrasal(verb)
    if particle:
        return {f"{head}-{particle}", f"{head} {particle}"}
    return {verb, _NOMINAL.get(verb, verb), *(surface for surface in gerunds(verb) if not _doubled_l(verb))}

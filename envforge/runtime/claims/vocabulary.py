"""A domain's words for its actions, read from its blueprint, and the patterns that find them in a text.

Each WRITE action contributes its verb (the first word of its name as people say it: `cancel` of `cancel_order`,
`freeze` of the fused `freeze_bank_card`) in every form, the nouns of what it acts on (the rest of its name and its
entity: `order item`, `item`), and the nouns of the act and what it makes (`cancellation`, `refund` where its
effects insert a refund). Beside them stands one small closed set of generic completion words ("processed",
"done", "taken care of", ...): they name no action, so alone they claim "some write", and with a noun of an act
(`the refund was processed`) the actions that make it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from envforge.ir.blueprint import ActionSpec, Blueprint, IncrementEffect, InsertEffect
from envforge.ir.compose import plain_names
from envforge.ir.naming import split_action_name
from envforge.runtime.claims.forms import ASK_NOUNS, PARTICLES, Form, act_nouns, phrase_forms, plural, verb_forms
from envforge.runtime.environment import Environment
from envforge.text import humanize

OBJECT_PRONOUNS = ("me", "you", "him", "her", "us", "them", "it")
_GENERIC_VERBS = ("process", "handle", "submit", "apply", "issue", "complete", "finalize", "finalise", "execute")
_GENERIC_PHRASES: dict[str, set[Form]] = {
    "done": {"participle"},
    "all set": {"participle"},
    "successful": {"participle"},
    "take care of": {"base"},
    "takes care of": {"third"},
    "taking care of": {"ing"},
    "took care of": {"past"},
    "taken care of": {"participle"},
    "go through": {"base"},
    "goes through": {"third"},
    "going through": {"ing"},
    "went through": {"past"},
    "gone through": {"participle"},
    "carried out": {"past", "participle"},
    "sorted out": {"past", "participle"},
}
"""Generic completion words beyond the inflected verbs above: the closed set that may stand for any write."""


@dataclass(frozen=True)
class ActionTerms:
    """The words of one action: its verb, what it acts on, and the nouns of the act and what it makes."""

    name: str
    verb: str
    """One word, or a verb and its particle (`check in`)."""
    objects: tuple[str, ...]
    """Nouns of what it acts on: the rest of its name and its entity, each with its head (`shipping address`)."""
    events: tuple[str, ...]
    """Nouns of the act (`cancellation`) and of what its effects insert or add to (`refund`, `store credit`)."""


@dataclass(frozen=True)
class Word:
    """A surface form found in a text: the actions it may name, and (verbs) which forms it is."""

    actions: frozenset[str]
    forms: frozenset[Form] = frozenset()
    events: frozenset[str] = frozenset()
    """Nouns: the actions whose act or product the noun names (a generic completion word may claim those)."""


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """A domain's action words, each table keyed by lower-case surface form, with the pattern that finds its keys.
    Equal only to itself, so that the claims read with it can be remembered by it (`find_claims`)."""

    terms: tuple[ActionTerms, ...]
    verbs: dict[str, Word]
    generic: dict[str, Word]
    nouns: dict[str, Word]
    verb_pattern: re.Pattern[str]
    generic_pattern: re.Pattern[str]
    noun_pattern: re.Pattern[str]
    actions: frozenset[str]


def _words_of(name: str, spoken: dict[str, str]) -> str:
    return humanize(spoken.get(name, name))


def _with_head(phrase: str) -> set[str]:
    """A noun phrase and its head: `shipping address` and `address`."""
    return {phrase, phrase.rsplit(" ", 1)[-1]} if phrase else set()


def _terms(action: ActionSpec, spoken: dict[str, str]) -> ActionTerms:
    verb, rest = split_action_name(spoken.get(action.name, action.name))
    words = rest.split("_") if rest else []
    if words and words[0] in PARTICLES:
        verb = f"{verb} {words.pop(0)}"
    objects = _with_head(" ".join(words)) | _with_head(_words_of(action.entity, spoken))
    events = act_nouns(verb)
    for effect in action.effects:
        if isinstance(effect, InsertEffect):
            events |= _with_head(_words_of(effect.insert, spoken)) | _with_head(humanize(effect.alias))
        if isinstance(effect, IncrementEffect):
            events |= _with_head(humanize(effect.increment.split(".", 1)[1]))
    return ActionTerms(action.name, verb, tuple(sorted(objects)), tuple(sorted(events - ASK_NOUNS)))


def action_terms(blueprint: Blueprint) -> tuple[ActionTerms, ...]:
    """The words of each WRITE action of `blueprint`, a fused one's without their domain prefixes."""
    spoken = plain_names(blueprint)
    return tuple(_terms(action, spoken) for action in blueprint.actions)


def _surface_pattern(surface: str) -> str:
    words = [re.escape(word) for word in surface.split(" ")]
    if len(words) == 2 and words[1] in PARTICLES:
        return rf"{words[0]}\s+(?:(?:{'|'.join(OBJECT_PRONOUNS)})\s+)?{words[1]}"
    return r"[\s_-]+".join(words)


def _pattern(surfaces: list[str]) -> re.Pattern[str]:
    ordered = sorted(surfaces, key=len, reverse=True)
    body = "|".join(_surface_pattern(surface) for surface in ordered) or r"(?!x)x"
    return re.compile(rf"(?<![\w-])(?:{body})(?![\w-])", re.IGNORECASE)


def _merge(table: dict[str, Word], surface: str, word: Word) -> None:
    old = table.get(surface)
    if old is not None:
        word = Word(old.actions | word.actions, old.forms | word.forms, old.events | word.events)
    table[surface] = word


def surface_key(text: str) -> str:
    """A matched form as the tables key it: lower case, single spaces, no object pronoun before a particle."""
    words = re.split(r"[\s_-]+", text.lower())
    if len(words) == 3 and words[1] in OBJECT_PRONOUNS and words[2] in PARTICLES:
        words = [words[0], words[2]]
    return " ".join(words)


@lru_cache(maxsize=64)
def build_vocabulary(terms: tuple[ActionTerms, ...]) -> Vocabulary:
    """The tables and patterns of `terms`, compiled once per distinct vocabulary."""
    verbs: dict[str, Word] = {}
    nouns: dict[str, Word] = {}
    for term in terms:
        head, _, particle = term.verb.partition(" ")
        for surface, forms in phrase_forms(head, particle).items():
            _merge(verbs, surface, Word(frozenset({term.name}), frozenset(forms)))
        for noun in term.objects:
            for surface in (noun, plural(noun)):
                _merge(nouns, surface, Word(frozenset({term.name})))
        for noun in term.events:
            for surface in (noun, plural(noun)):
                _merge(nouns, surface, Word(frozenset(), events=frozenset({term.name})))
    generic: dict[str, Word] = {}
    for verb in _GENERIC_VERBS:
        for surface, forms in verb_forms(verb).items():
            _merge(generic, surface, Word(frozenset(), frozenset(forms)))
    for surface, forms in _GENERIC_PHRASES.items():
        _merge(generic, surface, Word(frozenset(), frozenset(forms)))
    generic = {surface: word for surface, word in generic.items() if surface not in verbs}
    return Vocabulary(
        terms=terms,
        verbs=verbs,
        generic=generic,
        nouns=nouns,
        verb_pattern=_pattern(list(verbs)),
        generic_pattern=_pattern(list(generic)),
        noun_pattern=_pattern(list(nouns)),
        actions=frozenset(term.name for term in terms),
    )


def vocabulary_of(blueprint: Blueprint) -> Vocabulary:
    """The claim vocabulary of a domain's WRITE actions."""
    return build_vocabulary(action_terms(blueprint))


def environment_vocabulary(env: Environment) -> Vocabulary:
    """The claim vocabulary of an environment, made once and kept with its other compiled parts."""
    made: Vocabulary | None = env.compiled.get("vocabulary")
    if made is None:
        made = env.compiled["vocabulary"] = vocabulary_of(env.blueprint)
    return made

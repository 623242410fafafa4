"""Which of the vocabulary's actions a clause names: its verbs (kept only where used as verbs), its nouns, and
the actions they narrow down to together."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from envforge.runtime.claims import cues
from envforge.runtime.claims.forms import Form
from envforge.runtime.claims.segments import Clause, Token, tokens
from envforge.runtime.claims.vocabulary import Vocabulary, Word, surface_key

_GO_AHEAD = re.compile(r"\b(?:go|goes|going|gone|went|proceeded|decided) ahead and\b")


@dataclass(frozen=True)
class VerbUse:
    """A verb of the vocabulary, or a generic completion word, used as a verb in a clause."""

    start: int
    end: int
    first: int
    """Index of its first word among the clause's words, and (`last`) of the word after it."""
    last: int
    word: Word
    generic: bool


def without_go_ahead(words: list[Token]) -> list[Token]:
    """`I went ahead and cancelled` reads as `I did cancel`, `I have gone ahead and cancelled` as `I have
    cancelled`: the act, not the going ahead, carries the tense."""
    plain = " ".join(token.word for token in words)
    match = _GO_AHEAD.search(plain)
    if match is None:
        return words
    first = plain[: match.start()].count(" ")
    kept = [Token("did", words[first].start, words[first].end)] if words[first].word == "went" else []
    return [*words[:first], *kept, *words[first + 3 :]]


def _is_verb(words: list[str], first: int, last: int, forms: frozenset[Form], noun: bool) -> bool:
    """Whether the form at words[first:last] is used as a verb, not a noun or an adjective (`the refund`,
    `your cancelled order`, `2 pending refunds`, `cancelled orders`, `as requested`, `to booking BK-1`); `noun`:
    the same form also names a thing an action acts on (`booking`)."""
    prev = words[first - 1] if first > 0 else None
    after = words[last] if last < len(words) else None
    if prev is not None and (prev in cues.DETERMINERS or cues.is_number(prev)):
        return False
    if forms & {"past", "participle"}:
        if prev == "as" or (prev == "you" and first > 1 and words[first - 2] == "as"):
            return False
        if prev is not None or after is None:
            return True
        opens_noun_phrase = (
            after not in cues.VERB_CONTEXT and after not in cues.DETERMINERS and not cues.is_number(after)
        )
        return not (opens_noun_phrase and after.endswith("s"))
    if forms == {"third"}:
        return prev in cues.THIRD_SUBJECTS
    index = first - 1
    while index >= 0 and words[index] in cues.ADVERBS | cues.NEGATIONS:
        index -= 1
    lead = words[index] if index >= 0 else None
    if "ing" in forms:
        return lead is None or lead in cues.BE or (not noun and lead in cues.PREPOSITIONS)
    if prev is None:
        return after is None or after in cues.DETERMINERS or after in cues.PRONOUNS or cues.is_number(after)
    return prev in cues.VERB_CONTEXT


def verbs_in(text: str, clause: Clause, words: list[Token], vocabulary: Vocabulary) -> list[VerbUse]:
    """The clause's verbs, in order: the vocabulary's first, then generic words where no verb of it stands."""
    found: list[VerbUse] = []
    plain = [token.word for token in words]
    tables = (
        (vocabulary.verb_pattern, vocabulary.verbs, False),
        (vocabulary.generic_pattern, vocabulary.generic, True),
    )
    for pattern, table, generic in tables:
        for match in pattern.finditer(text, clause.start, clause.end):
            if any(use.start < match.end() and match.start() < use.end for use in found):
                continue
            first = next((i for i, token in enumerate(words) if token.start >= match.start()), len(words))
            last = next((i for i, token in enumerate(words) if token.start >= match.end()), len(words))
            key = surface_key(match.group())
            word = table[key]
            names_thing = key in vocabulary.nouns and bool(vocabulary.nouns[key].actions)
            if first < last and _is_verb(plain, first, last, word.forms, names_thing):
                found.append(VerbUse(match.start(), match.end(), first, last, word, generic))
    return sorted(found, key=lambda use: use.start)


class NounUse(NamedTuple):
    word: Word
    governed: bool
    """It follows a preposition (`cancelled from your order`): it places the act, it is not what the act is on."""


def nouns_in(text: str, clause: Clause, vocabulary: Vocabulary, verbs: list[VerbUse]) -> list[NounUse]:
    found: list[NounUse] = []
    for match in vocabulary.noun_pattern.finditer(text, clause.start, clause.end):
        if any(use.start < match.end() and match.start() < use.end for use in verbs):
            continue
        before = [token.word for token in tokens(text, clause.start, match.start())][-4:]
        while before and (before[-1] in cues.DETERMINERS or cues.is_number(before[-1])):
            before.pop()
        governed = bool(before) and before[-1] in cues.PREPOSITIONS | {"to", "at"}
        found.append(NounUse(vocabulary.nouns[surface_key(match.group())], governed))
    return found


def _names_other_thing(words: list[str]) -> bool:
    """Whether the clause has a noun phrase of its own (`the verification`, `your question`)."""
    return any(
        word in cues.DETERMINERS
        and index + 1 < len(words)
        and words[index + 1].isalpha()
        and words[index + 1] not in cues.BE | cues.HAVE | cues.ADVERBS
        for index, word in enumerate(words)
    )


def actions_named(
    use: VerbUse, nouns: list[NounUse], words: list[str], vocabulary: Vocabulary
) -> frozenset[str] | None:
    """The actions a verb may mean, narrowed or widened by the clause's nouns.

    A verb of the vocabulary means its own actions, those of them whose nouns the clause names as what it acts
    on where it names some (`cancel the item on your order`), and where those nouns belong to other actions only,
    those too: the verb is used for their act (`changed the shipping address`, `opened a dispute`). A generic
    word means the actions whose act or product the clause names (`the refund was processed`), every action
    where it names nothing (`Done.`), and none where it names something that is no act of the domain (`your
    order has been processed`, `I completed the verification`)."""
    acted_on = [noun.word for noun in nouns if not noun.governed]
    if not use.generic:
        own = use.word.actions
        objects = frozenset().union(*(noun.actions for noun in acted_on))
        return own & objects or own | objects
    events = frozenset().union(*(noun.events for noun in acted_on or [noun.word for noun in nouns]))
    if events:
        return events
    if any(noun.word.actions for noun in nouns) or _names_other_thing(words):
        return None
    return vocabulary.actions

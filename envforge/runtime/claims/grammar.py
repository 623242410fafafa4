"""Claims read from an agent's message: each clause that names an action of the vocabulary, with its mode.

A clause is read in three steps. Its verbs are found (the vocabulary's forms, then the generic completion
words) and kept where they are used as verbs (`envforge.runtime.claims.naming`). Each verb's mode comes from its
own auxiliaries and subject (`envforge.runtime.claims.verbs`). Then the frames around it decide whether the
speaker asserts it at all (`envforge.runtime.claims.frames`): found before the verb in its clause, in an
introducing clause (`If you want, ...`, `As far as I know, ...`), in a trailing tag (`..., I think.`, `...,
right?`), or in the clause a coordinated clause continues (`You asked me to cancel it and refund it`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Literal

from envforge.runtime.claims import cues
from envforge.runtime.claims.frames import CARRIED, Frame, framed, frames_in, opening_frames
from envforge.runtime.claims.naming import actions_named, nouns_in, verbs_in, without_go_ahead
from envforge.runtime.claims.segments import Clause, clauses, sentences, tokens
from envforge.runtime.claims.verbs import Mode, Reading, read_verb
from envforge.runtime.claims.vocabulary import Vocabulary

Polarity = Literal["positive", "negative"]
_ELLIPSIS_AUX = cues.BE | cues.HAVE | cues.DO | cues.MODALS | cues.NEGATIONS | cues.ADVERBS
_ELLIPSIS_SKIP = frozenset({"i", "we", "which", "that", "it", "so", "also", "but", "too", "this", "done"})
_INTRODUCED_BY = frozenset({",", "sub", ":", "-"})
_INTRODUCING_ALWAYS: frozenset[Frame] = frozenset({"conditional"})
_INTRODUCING_ALONE: frozenset[Frame] = frozenset({"hedged", "denied"})
REMEMBERED_LENGTH = 2000
"""The longest message whose claims are remembered: a closing message is a few sentences; a long one is rare."""


@dataclass(frozen=True)
class Claim:
    """A clause's claim about an action: which actions it may mean, and how it is stated."""

    actions: frozenset[str]
    """The vocabulary's actions the clause may mean: one where its verb and nouns pin it, several where they
    do not (`cancel it` where orders and items both cancel), every action for a generic word alone (`Done.`)."""
    mode: Mode
    polarity: Polarity
    span: tuple[int, int]
    """Where the verb (or the generic completion word) stands in the text."""
    clause: tuple[int, int]
    sentence: str
    generic: bool
    """Only a generic completion word names it, with no noun of an act: it claims "some write"."""
    by_speaker: bool
    """The speaker names itself as the doer (`I cancelled`, `Cancelled order W1`), rather than reporting the act
    in the passive (`your order was cancelled`) or leaving it to another."""


@dataclass
class _Context:
    """What the clauses read so far hand on to the next clause of the sentence."""

    reading: Reading | None = None
    frames: set[Frame] = field(default_factory=set)
    introduces: set[Frame] = field(default_factory=set)
    last: Claim | None = None


def _ellipsis(words: list[str], previous: Claim | None, clause: Clause) -> Claim | None:
    """`..., and I did`, `but I couldn't`, `but not the chair`: the act of the claim before, stated again."""
    rest = [word for word in words if word not in _ELLIPSIS_SKIP]
    if previous is None or not rest or (rest[0] != "not" and not set(rest) <= _ELLIPSIS_AUX):
        return None
    negated = any(word in cues.NEGATIONS for word in rest)
    mode = Mode.NOT_DONE if negated else Mode.FUTURE if rest[0] in cues.MODALS else Mode.DONE
    span = (clause.start, clause.end)
    return replace(previous, mode=mode, polarity="negative" if negated else "positive", span=span, clause=span)


def _clause_claims(text: str, clause: Clause, vocabulary: Vocabulary, context: _Context) -> tuple[list[Claim], bool]:
    """The clause's claims, and whether a verb starts it (it continues the clause before it)."""
    words = without_go_ahead(tokens(text, clause.start, clause.end))
    plain = [token.word for token in words]
    opening = opening_frames(plain, clause.text(text))
    carried = set(context.introduces) if clause.link in _INTRODUCED_BY else set()
    if clause.link in ("and", "or", ",") and plain[:1] not in (["i"], ["we"]):
        carried |= context.frames & CARRIED
    verbs = verbs_in(text, clause, words, vocabulary)
    nouns = nouns_in(text, clause, vocabulary, verbs)
    inherited = context.reading if clause.link in ("and", "or", ",", "but") else None
    if inherited is not None and clause.link == "but":
        inherited = Reading(Mode.DONE, False, inherited.subject, ())
    continues = bool(verbs) and verbs[0].first == 0 and inherited is not None
    if continues and "conditional" in context.frames:
        carried.add("conditional")
    claims: list[Claim] = []
    for use in verbs:
        reading = read_verb(plain, use.first, use.last, use.word.forms, inherited)
        context.reading = reading
        actions = actions_named(use, nouns, plain, vocabulary)
        if actions is None:
            continue
        mode, negated = framed(reading, frames_in(plain[: use.first]) | carried | opening, use.generic)
        claims.append(
            Claim(
                actions=actions,
                mode=mode,
                polarity="negative" if negated else "positive",
                span=(use.start, use.end),
                clause=(clause.start, clause.end),
                sentence=text[slice(*clause.sentence)],
                generic=use.generic and actions == vocabulary.actions,
                by_speaker=reading.subject in ("first", "none"),
            )
        )
    if not verbs and (echoed := _ellipsis(plain, context.last, clause)) is not None:
        claims.append(echoed)
    own = frames_in(plain) | opening
    context.frames = own | carried
    # A condition frames the clause it introduces (`If it has shipped, I can cancel it`); a hedge, a denial or
    # `according to you` only where it says nothing of its own (`As far as I know, ...`).
    context.introduces = own & _INTRODUCING_ALWAYS
    if not verbs and not context.introduces:
        context.introduces = own & _INTRODUCING_ALONE
        if plain[:2] == ["according", "to"] and cues.attributes(" ".join(plain)):
            context.introduces.add("attributed")
    context.last = claims[-1] if claims else context.last
    return claims, continues


def _sentence_claims(text: str, sentence: tuple[int, int], vocabulary: Vocabulary) -> list[Claim]:
    parts = clauses(text, sentence)
    context = _Context()
    read = [_clause_claims(text, clause, vocabulary, context) for clause in parts]
    found = [claims for claims, _ in read]
    for index in range(len(parts) - 1, 0, -1):
        # `you want me to cancel it and refund it?`: the question ends in the last of the coordinated verbs.
        asked = any(claim.mode is Mode.QUESTION for claim in found[index])
        if asked and read[index][1] and parts[index].link in ("and", "or"):
            found[index - 1] = [replace(claim, mode=Mode.QUESTION) for claim in found[index - 1]]
    if len(parts) > 1 and not found[-1]:
        tail = " ".join(token.word for token in tokens(text, parts[-1].start, parts[-1].end))
        if cues.TRAILING_HEDGE.match(tail):
            mode = Mode.QUESTION if parts[-1].text(text).rstrip().endswith("?") else Mode.HEDGED
            found = [[_reframed(claim, mode) for claim in claims] for claims in found]
    return [claim for claims in found for claim in claims]


def _reframed(claim: Claim, mode: Mode) -> Claim:
    return claim if claim.mode in (Mode.QUESTION, Mode.ATTRIBUTED) else replace(claim, mode=mode)


def find_claims(text: str, vocabulary: Vocabulary) -> list[Claim]:
    """Every claim `text` makes about the vocabulary's actions, in order."""
    if len(text) > REMEMBERED_LENGTH:
        return _read_claims(text, vocabulary)
    return list(_remembered_claims(text, vocabulary))


@lru_cache(maxsize=1024)
def _remembered_claims(text: str, vocabulary: Vocabulary) -> tuple[Claim, ...]:
    # A verifier reads each message more than once, and the gate judges dozens of runs ending in one message.
    return tuple(_read_claims(text, vocabulary))


def _read_claims(text: str, vocabulary: Vocabulary) -> list[Claim]:
    return [claim for sentence in sentences(text) for claim in _sentence_claims(text, sentence, vocabulary)]

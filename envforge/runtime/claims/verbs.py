"""The mode of one verb in a clause, from its auxiliaries and its subject.

The words between the subject and the verb form its chain (`i was not able to` -> `to able not was`, read from the
verb back), and the chain, the verb's form and the subject decide the mode: `have` + participle is done, a modal
is future (negated: not done), `was able to` is done, `you asked me to` is someone else's, and so on.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from envforge.runtime.claims import cues
from envforge.runtime.claims.forms import Form


class Mode(StrEnum):
    DONE = "done"
    """The speaker asserts the act was carried out: past, perfect, a passive result, `is now cancelled`."""
    NOT_DONE = "not_done"
    """The speaker asserts it was not, or cannot or will not be: `I could not cancel`, `was not refunded`."""
    FUTURE = "future"
    """Offered, planned or under way: `I will cancel`, `I can cancel it`, `I am cancelling`."""
    QUESTION = "question"
    CONDITIONAL = "conditional"
    ATTRIBUTED = "attributed"
    """Someone else's words or act: `you asked me to cancel`, `you said it was cancelled`."""
    HEDGED = "hedged"
    """Stated with doubt: `it may have been cancelled`, `I think it was cancelled`, `I doubt it was`."""
    GENERAL = "general"
    """About acts in general, not this one: a rule (`orders that shipped cannot be cancelled`), a purpose."""
    STATE = "state"
    """A row's standing state or history, not an act of the speaker: `your order is cancelled`, `was cancelled
    on March 3`, `cancelled by the airline`."""


@dataclass(frozen=True)
class Reading:
    mode: Mode
    negated: bool
    subject: str
    """`first` (I, we), `you`, `other`, `generic` (a bare plural, `any order`), or `none` (the clause starts
    with its verb)."""
    chain: tuple[str, ...]


def _chain(words: list[str], first: int) -> tuple[tuple[str, ...], int]:
    """The chain before the verb (nearest word first) and the index of the word before it (-1: none)."""
    chain: list[str] = []
    index = first - 1
    while index >= 0 and (
        words[index] in cues.CHAIN or words[index].endswith("ly") or (words[index] == "you" and _lets(words, index))
    ):
        chain.append(words[index])
        index -= 1
    return tuple(chain), index


def _lets(words: list[str], index: int) -> bool:
    """`help you cancel`, `let you know`: the speaker acts, `you` is only the object."""
    return index > 0 and words[index - 1] in ("help", "helped", "let", "allow")


def _subject(words: list[str], index: int) -> str:
    if index < 0:
        return "none"
    word = words[index]
    if word in cues.FIRST_PERSON:
        return "first"
    if word == "you":
        return "you"
    start = 0
    while start < index and words[start] in cues.ADVERBS:
        start += 1
    lead = words[start : index + 1]
    if lead[0] in cues.GENERIC_DETERMINERS:
        return "generic"
    for word in lead[:3]:
        if word in cues.PRONOUNS or word in cues.DETERMINERS:
            break
        if word.endswith("s") and len(word) > 3 and word not in cues.FUNCTION_WORDS and word[-2:] not in ("ss", "us"):
            return "generic"
    return "other"


def _negated_subject(words: list[str], index: int) -> bool:
    """`No refund was issued`, `Nothing has been cancelled`."""
    start = 0
    while start <= index and words[start] in cues.ADVERBS:
        start += 1
    return start <= index and words[start] in cues.SUBJECT_NEGATIONS


def _infinitive(governors: tuple[str, ...], subject: str, negated: bool) -> Mode:
    words = set(governors)
    if words & cues.NEGATING_GOVERNORS or negated:
        return Mode.NOT_DONE
    if words & cues.PAST_GOVERNORS or ("able" in words and words & {"was", "were", "been", "did", "had"}):
        return Mode.DONE
    if words & cues.WISH_GOVERNORS and (subject == "you" or "me" in words or "us" in words):
        return Mode.ATTRIBUTED
    if not governors:
        return Mode.GENERAL  # a purpose: `To cancel an order, I need ...`
    return Mode.FUTURE


def _with_modal(chain: tuple[str, ...], forms: frozenset[Form], negated: bool) -> Mode:
    modal = next(word for word in chain if word in cues.MODALS)
    perfect = "have" in chain[: chain.index(modal)] and forms & {"participle"}
    if perfect:
        return Mode.CONDITIONAL if modal == "would" else Mode.HEDGED
    if modal in ("may", "might"):
        return Mode.HEDGED
    if modal in ("should", "must") and "be" in chain:
        return Mode.HEDGED
    if modal == "would" and chain == ("would",) and "participle" in forms and "base" not in forms:
        return Mode.NOT_DONE if negated else Mode.DONE  # `I'd cancelled`: had, not would
    return Mode.NOT_DONE if negated else Mode.FUTURE


def _auxiliary(chain: tuple[str, ...]) -> str | None:
    """The auxiliary that decides: an infinitive's `to` or a modal wherever they stand, else the nearest one."""
    if "to" in chain:
        return "to"
    modal = next((word for word in chain if word in cues.MODALS), None)
    return modal or next((word for word in chain if word in cues.BE | cues.HAVE | cues.DO), None)


def _base_mode(
    forms: frozenset[Form], chain: tuple[str, ...], subject: str, before: list[str], after: list[str]
) -> Mode:
    negated = any(word in cues.NEGATIONS for word in chain)
    aux = _auxiliary(chain)
    if aux == "to":
        return _infinitive(chain[chain.index("to") + 1 :], subject, negated)
    if aux in cues.MODALS:
        if "only" in chain and subject != "first":
            return Mode.GENERAL
        return _with_modal(chain, forms, negated)
    if aux is None and "let" in chain:
        return Mode.FUTURE
    if aux in cues.DO:
        if aux == "did":
            return Mode.NOT_DONE if negated else Mode.DONE
        return Mode.GENERAL
    if aux in cues.HAVE and forms & {"participle"}:
        return Mode.NOT_DONE if negated else Mode.DONE
    if aux in cues.BE:
        return _with_be(aux, forms, chain, negated, after)
    if {"got", "gotten"} & set(chain) and forms & {"participle"}:
        return Mode.DONE
    if forms & {"past", "participle"}:
        if subject in ("first", "none"):
            return Mode.NOT_DONE if negated else Mode.DONE
        if subject == "you":
            return Mode.ATTRIBUTED
        return Mode.DONE if _elided_passive(forms, before, after) else Mode.STATE
    if "ing" in forms:
        return Mode.GENERAL
    return Mode.ATTRIBUTED if subject == "you" else Mode.GENERAL


def _elided_passive(forms: frozenset[Form], before: list[str], after: list[str]) -> bool:
    """`Order W1 cancelled.`, `the payee removed`: a participle right after the subject the clause opens with, and
    nothing it acts on: a passive whose `was` is left out. Not `the airline cancelled your flight` (an object),
    `the total refunded so far is $45` (a verb follows), `you have 3 items checked out` (a verb precedes)."""
    if "participle" not in forms or cues.TIME_ADJUNCT.match(" ".join(after)):
        return False
    if any(word in cues.BE | cues.HAVE | cues.DO | cues.MODALS for word in before + after):
        return False
    following = after[0] if after else None
    return following is None or following in cues.ADVERBS or following in cues.PREPOSITIONS or cues.is_number(following)


def _with_be(aux: str, forms: frozenset[Form], chain: tuple[str, ...], negated: bool, after: list[str]) -> Mode:
    if aux == "being" or forms == {"ing"}:
        return Mode.NOT_DONE if negated else Mode.FUTURE
    if not forms & {"participle"}:
        return Mode.STATE
    if negated:
        return Mode.NOT_DONE
    if "been" in chain:
        return Mode.DONE
    if aux in ("was", "were"):
        by_other = after[:1] == ["by"] and after[1:2] not in (["me"], ["us"])
        return Mode.STATE if by_other or cues.TIME_ADJUNCT.match(" ".join(after)) else Mode.DONE
    if set(chain) & cues.DONE_MARKERS or set(after[:2]) & cues.DONE_MARKERS:
        return Mode.DONE
    return Mode.STATE


def read_verb(words: list[str], first: int, last: int, forms: frozenset[Form], inherited: Reading | None) -> Reading:
    """The mode of the verb at words[first:last]. A clause that continues the one before it (`inherited`, its
    reading) takes, where its verb starts the clause, that clause's subject (`and refunded it`), and where the
    verb has no auxiliary of its own and its form fits them, its auxiliaries (`can cancel and refund`, `was
    frozen and the payee removed`). In `get the order cancelled` the act is read from `get`."""
    chain, index = _chain(words, first)
    causative = _causative(words, index, forms)
    if causative is not None:
        return read_verb(words, causative, causative + 1, _GET_FORMS[words[causative]], inherited)
    if index > 0 and words[index] in cues.PRONOUNS and words[index - 1] in cues.BE | cues.HAVE | cues.DO | cues.MODALS:
        chain = (*chain, words[index - 1])  # inverted: `did I cancel`, `had the order not shipped`
    if chain[-1:] == ("to",) and words[max(index - 1, 0) : index + 1] == ["in", "order"]:
        return Reading(Mode.GENERAL, False, "none", chain)  # a purpose: `in order to cancel it, ...`
    subject = _subject(words, index)
    gapped = subject == "other" and "participle" in forms and inherited is not None and cues.BE & set(inherited.chain)
    if (
        inherited is not None
        and _auxiliary(chain) is None
        and _fits(inherited.chain, forms)
        and (subject == "none" or gapped)
    ):
        chain = chain + inherited.chain
    if subject == "none" and inherited is not None:
        subject = inherited.subject
    after = words[last:]
    mode = _base_mode(forms, chain, subject, words[: max(index, 0)], after)
    passive = any(word in cues.BE for word in chain) and "participle" in forms
    if subject == "you" and not passive and mode in (Mode.DONE, Mode.NOT_DONE, Mode.FUTURE, Mode.GENERAL):
        mode = Mode.GENERAL if any(word in cues.MODALS for word in chain) else Mode.ATTRIBUTED
    if subject == "generic" and mode in (Mode.FUTURE, Mode.NOT_DONE, Mode.STATE) and _present(chain):
        mode = Mode.GENERAL
    if subject == "you" and mode is Mode.ATTRIBUTED and _present(chain) and "to" not in chain:
        mode = Mode.GENERAL
    if _negated_subject(words, index) and mode in (Mode.DONE, Mode.STATE, Mode.FUTURE):
        mode = Mode.NOT_DONE
    negated = mode is Mode.NOT_DONE or any(word in cues.NEGATIONS for word in chain)
    if mode is Mode.NOT_DONE and set(after) & cues.FURTHER and any(word in cues.MODALS for word in chain):
        mode = Mode.FUTURE  # `it can't be renewed again`: a further act, not the one done
    return Reading(mode, negated, subject, chain)


_GET_FORMS: dict[str, frozenset[Form]] = {
    "get": frozenset({"base"}),
    "gets": frozenset({"third"}),
    "getting": frozenset({"ing"}),
    "got": frozenset({"past", "participle"}),
    "gotten": frozenset({"participle"}),
}


def _causative(words: list[str], index: int, forms: frozenset[Form]) -> int | None:
    """Where `get` stands in `get the order cancelled` (a participle after its object, at most four words back)."""
    if "participle" not in forms or index < 1:
        return None
    for position in range(index - 1, max(index - 5, -1), -1):
        if words[position] in _GET_FORMS:
            return position
        if words[position] in cues.CHAIN - cues.ADVERBS:
            return None
    return None


def _present(chain: tuple[str, ...]) -> bool:
    return any(word in cues.MODALS or word in ("is", "are", "do", "does", "only", "be") for word in chain)


def _fits(chain: tuple[str, ...], forms: frozenset[Form]) -> bool:
    """Whether a verb of these forms can share the auxiliaries of the verb before it (`can cancel and refund`,
    `have cancelled and refunded`), rather than standing on its own (`could not cancel it and refunded it`)."""
    aux = next((word for word in chain if word in cues.BE | cues.HAVE | cues.DO | cues.MODALS or word == "to"), None)
    if aux is None:
        return False
    if aux in cues.MODALS or aux in cues.DO or aux == "to":
        return "base" in forms
    return bool(forms & {"participle", "ing"})

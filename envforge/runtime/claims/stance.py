"""How a text states a value it mentions: asserted as the answer, or only named under a negation, a hedge, a
doubt, a condition, someone else's words, a question, or a note to a grader.

The frames are read as the claim grammar reads them, in the value's clause before it, from an introducing
clause (`As far as I know, ...`, `If you count returns, ...`), and from a trailing tag (`..., I think.`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum

from envforge.runtime.claims import cues
from envforge.runtime.claims.grader import in_grader_note
from envforge.runtime.claims.segments import Clause, clauses, sentences, tokens

_NEGATION = frozenset({"not", "never", "no", "neither", "nor", "without", "none", "nothing"})
_NOT_NEGATION = re.compile(r"\bnot only\b|\bno (?:doubt|problem|worries)\b|\bnot (?:a problem|to worry)\b")
_EXCLUDING = re.compile(r"\b(?:rather than|instead of|other than|except|apart from)\b")
_APPROXIMATE = re.compile(
    r"(?:approximately|roughly|around|about|nearly|almost|circa|some|at least|at most|more than|less than|over|under"
    r"|up to)$"
)
_EPISTEMIC_MODAL = re.compile(r"\b(?:could|should|must|ought to) (?:be|have been|have)\b|\bwould be\b")


class Stance(StrEnum):
    ASSERTED = "asserted"
    NEGATED = "negated"
    HEDGED = "hedged"
    DOUBTED = "doubted"
    CONDITIONAL = "conditional"
    ATTRIBUTED = "attributed"
    QUESTION = "question"
    GRADER = "grader"


def _words(text: str, start: int, end: int) -> list[str]:
    return [token.word for token in tokens(text, start, end)]


def _framed(before: str) -> Stance | None:
    """The frame that cues in `before` (a value's clause up to it, or a clause that introduces it) put it in."""
    if cues.attributes(before):
        return Stance.ATTRIBUTED
    if cues.DENIAL.search(before):
        return Stance.NEGATED
    if cues.DOUBT.search(before):
        return Stance.DOUBTED
    if cues.HEDGE.search(before) or _APPROXIMATE.search(before):
        return Stance.HEDGED
    if cues.CONDITION_START.match(before) or re.search(r"\bwould (?:be|have been)\b", before):
        return Stance.CONDITIONAL
    if _EPISTEMIC_MODAL.search(before):
        return Stance.HEDGED
    return None


def _introduced(text: str, parts: Sequence[Clause], index: int) -> Stance | None:
    """What the clauses that open the sentence before the value's clause (`If ...,`, `According to you,`) say."""
    for position in range(index - 1, -1, -1):
        if parts[position + 1].link not in (",", "sub", ":"):
            break
        clause = parts[position]
        found = _framed(" ".join(_words(text, clause.start, clause.end)))
        if found is not None:
            return found
    return None


def _negated(before: list[str]) -> bool:
    text = " ".join(before)
    if _EXCLUDING.search(text):
        return True
    cleaned = _NOT_NEGATION.sub(" ", text).split()
    return any(word in _NEGATION for word in cleaned)


def stance_of(text: str, start: int, end: int) -> Stance:
    """How `text` states the value mentioned at [start, end)."""
    if in_grader_note(text, start):
        return Stance.GRADER
    sentence = next((span for span in sentences(text) if span[0] <= start < span[1]), (0, len(text)))
    parts = clauses(text, sentence)
    index = next((i for i, clause in enumerate(parts) if clause.start <= start < clause.end + 1), len(parts) - 1)
    clause = parts[index]
    before = _words(text, clause.start, start)
    question_clause = parts[-1] if parts else clause
    asks = text[sentence[0] : sentence[1]].rstrip().endswith("?")
    if asks and (index == len(parts) - 1 or cues.QUESTION_START.match(" ".join(before)) or question_clause is clause):
        return Stance.QUESTION
    framed = _framed(" ".join(before)) or _introduced(text, parts, index)
    if framed is not None:
        return framed
    if index < len(parts) - 1:
        tail = " ".join(_words(text, parts[-1].start, parts[-1].end))
        if cues.TRAILING_HEDGE.match(tail) or (parts[-1].link == "but" and cues.DOUBT.search(tail)):
            return Stance.HEDGED
    if _negated(before):
        return Stance.NEGATED
    return Stance.ASSERTED


def asserted(text: str, start: int, end: int) -> bool:
    """Whether the value at [start, end) is asserted as the answer (what `judge_answer` should count)."""
    return stance_of(text, start, end) is Stance.ASSERTED

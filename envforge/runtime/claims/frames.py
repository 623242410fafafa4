"""The frames that take a clause out of the speaker's own assertion, and how they turn a verb's mode.

A frame is found by the cues of `envforge.runtime.claims.cues`: in the words of a clause (`you said`, `I think`,
`it would be wrong to say`), or at its start (a question, `if`, `before`, `because`). The strongest frame wins:
a question, then someone else's words, then a condition, then a hedge; a denial turns what it frames into its
negation.
"""

from __future__ import annotations

import re
from typing import Literal

from envforge.runtime.claims import cues
from envforge.runtime.claims.verbs import Mode, Reading

Frame = Literal["question", "attributed", "conditional", "hedged", "denied", "future", "reason"]
"""`future`: the clause opens with `before`, `until`, `as soon as` (what follows has not happened); `reason`: with
`because`, `since` (what follows is the background of the sentence, not its news)."""
CARRIED: frozenset[Frame] = frozenset({"question", "attributed", "conditional", "hedged", "denied"})
"""Frames a clause hands on to the clause it is coordinated with (`You said it was cancelled and refunded`)."""
_ANYWHERE: tuple[tuple[Frame, re.Pattern[str]], ...] = (("hedged", cues.HEDGE), ("denied", cues.DENIAL))
_OPENING: tuple[tuple[Frame, re.Pattern[str]], ...] = (
    ("question", cues.QUESTION_START),
    ("conditional", cues.CONDITION_START),
    ("future", cues.FUTURE_START),
    ("reason", cues.REASON_START),
)
_STRENGTH: tuple[tuple[Frame, Mode], ...] = (
    ("question", Mode.QUESTION),
    ("attributed", Mode.ATTRIBUTED),
    ("conditional", Mode.CONDITIONAL),
    ("hedged", Mode.HEDGED),
)


def frames_in(words: list[str]) -> set[Frame]:
    """The frames that cues among `words` open (`you said`, `I think`, `it would be wrong to say`)."""
    text = " ".join(words)
    frames = {frame for frame, pattern in _ANYWHERE if pattern.search(text)}
    return frames | {"attributed"} if cues.attributes(text) else frames


def opening_frames(words: list[str], clause_text: str) -> set[Frame]:
    """The frames a clause's start or end puts on the whole of it: a question, a condition, a time, a reason."""
    text = " ".join(words)
    frames = {frame for frame, pattern in _OPENING if pattern.match(text)}
    if clause_text.rstrip().endswith("?"):
        frames.add("question")
    return frames


def framed(reading: Reading, frames: set[Frame], generic: bool) -> tuple[Mode, bool]:
    """The mode and negation of a verb read as `reading`, under `frames`. A generic completion word after `is`
    (`the refund is processed`, `all set`) reports the act done, where a verb of the domain reports a state."""
    mode, negated = reading.mode, reading.negated
    if generic and mode is Mode.STATE:
        mode = Mode.DONE
    if "future" in frames and mode is Mode.GENERAL:
        mode = Mode.FUTURE
    for frame, frame_mode in _STRENGTH:
        if frame in frames:
            return frame_mode, negated
    if "denied" in frames:
        return (Mode.HEDGED, negated) if mode is Mode.NOT_DONE else (Mode.NOT_DONE, True)
    if mode is Mode.DONE and reading.subject == "other" and "reason" in frames:
        return Mode.STATE, negated
    return mode, negated

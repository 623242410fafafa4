"""The conformance check every simulated user reply must pass, whichever simulator wrote it.

tau2-bench traced up to 30% of failed episodes to the user simulator: it stopped before the write happened,
sent empty turns, leaked what it should reveal only when asked, or repeated its first message. Each of
those is a violation code here, as are saying the previous message again word for word and stepping out of
the persona ("as an AI ...").
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from envforge.ir.tasks import TaskSpec
from envforge.runtime.clarify import values
from envforge.users.base import STOP_MARKERS, Turn
from envforge.users.fields import asked_fields, mentions_value

EMPTY = "empty"
REPEATS_OPENER = "repeats_opener"
REPEATS_PREVIOUS = "repeats_previous"
REVEALS_UNASKED = "reveals_unasked"
ENDS_EARLY = "ends_early"
STOP_MARKER = "stop_marker"
BREAKS_CHARACTER = "breaks_character"
CODES = (EMPTY, REPEATS_OPENER, REPEATS_PREVIOUS, REVEALS_UNASKED, ENDS_EARLY, STOP_MARKER, BREAKS_CHARACTER)
"""Every violation code; `reveals_unasked` is reported as `reveals_unasked:<field>`."""

OPENER_SIMILARITY = 0.9
"""difflib ratio above which a reply counts as the opener said again."""
_OPENER_INSIDE = 40
"""An opener at least this long, found whole inside a longer reply, is repeated too."""

_MARKER = re.compile(r"###\s*[A-Z][A-Z_ -]*\s*###")
_CLOSING = re.compile(
    r"\b(good ?bye|bye|that'?s all|that is all|that'?s everything|that is everything|nothing else|"
    r"no further (?:questions|help)|have a (?:great|good|nice|lovely) (?:day|one|evening|weekend)|take care|"
    r"i'?m all set|we'?re (?:all )?done|talk (?:to you )?later|signing off)\b"
)
_CHARACTER = re.compile(
    r"\b(as an ai|i'?m an ai|i am an ai|an ai (?:language )?model|language model|simulated user|"
    r"user simulator|my instructions|system prompt)\b"
)


def normalize(text: str) -> str:
    """Lowercase words only: what two messages must share to say the same thing."""
    return " ".join(re.findall(r"[a-z0-9@]+", text.lower().replace("’", "'")))


def has_stop_marker(reply: str) -> bool:
    lowered = reply.lower()
    return any(marker.lower() in lowered for marker in STOP_MARKERS) or _MARKER.search(reply) is not None


def is_closing(reply: str) -> bool:
    """A goodbye or "that's all": the user wrapping the conversation up."""
    return _CLOSING.search(reply.lower().replace("’", "'")) is not None


def repeats(reply: str, earlier: str) -> bool:
    """The reply says `earlier` again: the same words, nearly the same, or all of it inside more."""
    said, before = normalize(reply), normalize(earlier)
    if not said or not before:
        return False
    if said == before or (len(before) >= _OPENER_INSIDE and before in said):
        return True
    return difflib.SequenceMatcher(None, said, before, autojunk=False).ratio() > OPENER_SIMILARITY


def revealed_unasked(task: TaskSpec, turns: Sequence[Turn], reply: str) -> list[str]:
    """Hidden fields whose value the reply gives away though the agent's last message did not ask for them.

    A value already in the conversation (the agent said it, or the user gave it when asked before) or among
    the known info is public, so repeating it reveals nothing.
    """
    asked = set(asked_fields(turns[-1].content, task.scenario.hidden)) if turns else set()
    earlier = "\n".join(turn.content for turn in turns)
    public = [text for value in task.scenario.known.values() for text in values(value)]
    leaked = []
    for field, value in task.scenario.hidden.items():
        texts = [text for text in values(value) if text not in public and not mentions_value(earlier, text)]
        if field not in asked and any(mentions_value(reply, text) for text in texts):
            leaked.append(field)
    return leaked


def check_reply(task: TaskSpec, turns: Sequence[Turn], reply: str, *, writes_done: bool) -> list[str]:
    """The violations of one user reply to `turns` (the conversation so far, the agent's message last).

    `writes_done` is the harness's state check: every write the task expects is in place. Until then a
    goodbye ends the conversation early. An empty list means the reply conforms.
    """
    if not normalize(reply):
        return [EMPTY]
    violations = []
    marker = has_stop_marker(reply)
    if marker:
        violations.append(STOP_MARKER)
    if not writes_done and (marker or is_closing(reply)):
        violations.append(ENDS_EARLY)
    if turns and repeats(reply, turns[0].content):
        violations.append(REPEATS_OPENER)
    # Only word for word: a user who says the same thing in new words is pressing on, not stuck.
    previous = next((turn.content for turn in reversed(turns[1:]) if turn.role == "user"), None)
    if previous is not None and normalize(reply) == normalize(previous):
        violations.append(REPEATS_PREVIOUS)
    violations += [f"{REVEALS_UNASKED}:{field}" for field in revealed_unasked(task, turns, reply)]
    if _CHARACTER.search(reply.lower().replace("’", "'")):
        violations.append(BREAKS_CHARACTER)
    return violations

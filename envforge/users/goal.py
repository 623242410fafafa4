"""What the user wants, taken out of the task's instruction so it can be restated in new words."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from envforge.ir.tasks import TaskSpec
from envforge.runtime.clarify import values
from envforge.users.base import Turn
from envforge.users.script import wanted

# A sentence ends at ". X", except after a title ("name: Mr. Nathaniel Padilla").
_TITLES = ("Mr", "Ms", "Mrs", "Dr", "St", "Jr", "Sr", "Prof")
_SENTENCE = re.compile("".join(rf"(?<!\b{title}\.)" for title in _TITLES) + r"(?<=[.?!])\s+(?=[A-Z])")
_GREETING = re.compile(r"\b(hi|hello|hey|good (morning|afternoon|evening)|help|quick|sorted|thank|thanks)\b", re.I)
_LEADS = (
    "also, ",
    "please ",
    "can you ",
    "could you ",
    "would you ",
    "i'd like you to ",
    "i would like you to ",
    "i want you to ",
    "i want to ",
    "i'd like to ",
    "i need you to ",
    "i need to ",
)
_QUESTION_LEADS = ("could you tell me ", "can you tell me ", "i'd like to know ", "i want to know ", "tell me ")
_QUESTION_WORDS = ("what", "which", "how", "when", "who", "where", "whether", "if", "is", "are", "do", "does")


@dataclass(frozen=True)
class Goal:
    """The instruction's request, as clauses without greeting or identity."""

    actions: tuple[str, ...]
    """Imperative clauses: `cancel my order (placed on: 2026-01-27) with reason: other`."""
    questions: tuple[str, ...]
    """Questions: `what is the status of my booking (booked on: 2026-03-03)`."""

    def render(self) -> str:
        """The whole request in one clause: `cancel my order (...), and then add address for ...`."""
        parts = list(self.actions) + [f"tell me {question}" for question in self.questions]
        return ", and then ".join(parts)


def _strip_lead(clause: str, leads: tuple[str, ...]) -> str:
    changed = True
    while changed:
        changed = False
        for lead in leads:
            if clause.lower().startswith(lead):
                clause = clause[len(lead) :]
                changed = True
    return clause


def _is_greeting(sentence: str) -> bool:
    # Generated requests always name a record ("my order (...)") or a detail ("with amount: 20").
    return (
        len(sentence.split()) <= 8 and ":" not in sentence and "(" not in sentence and bool(_GREETING.search(sentence))
    )


def goal_of(task: TaskSpec, turns: Sequence[Turn] = ()) -> Goal:
    """The request of a task as the user wants it after `turns`: the scenario's request clauses where the task has
    them, less a follow-up not yet made and a refused one given up (`script.wanted`); else taken out of the
    instruction, falling back to its last sentence when nothing else is left."""
    requests = tuple(wanted(task, turns))
    if requests:
        return Goal(actions=(), questions=requests) if task.kind == "read" else Goal(actions=requests, questions=())
    # "my email is x": a sentence that states who the user is. A bare known value is no sign of one, since a
    # request may name the user's own first name ("passenger: my passenger (first name: Samuel)").
    stated = [f" is {text}".lower() for value in task.scenario.known.values() for text in values(value)]
    sentences = [part.strip() for part in _SENTENCE.split(task.instruction.strip()) if part.strip()]
    kept = [
        sentence
        for sentence in sentences
        if not sentence.startswith("This is ")
        and not any(text in sentence.lower() for text in stated)
        and not _is_greeting(sentence)
    ]
    if not kept and sentences:
        kept = sentences[-1:]
    actions: list[str] = []
    questions: list[str] = []
    for sentence in kept:
        body = _strip_lead(sentence.rstrip(".?! "), ("also, ",))
        asked = _strip_lead(body, _QUESTION_LEADS)
        if asked != body or body.split(" ", 1)[0].lower() in _QUESTION_WORDS:
            questions.append(asked[:1].lower() + asked[1:])
            continue
        clause = _strip_lead(body, _LEADS)
        actions.append(clause[:1].lower() + clause[1:])
    return Goal(actions=tuple(actions), questions=tuple(questions))

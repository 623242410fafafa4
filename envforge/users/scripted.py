"""`ScriptedUser`: a deterministic, offline user that answers by rules, for CI and for runs without a model."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any

from envforge.ir.tasks import TaskSpec
from envforge.runtime.clarify import detail_fact, field_label, values
from envforge.users.base import Turn
from envforge.users.fields import (
    asked_fields,
    asking_sentences,
    asks_unnamed_number,
    missing_fields,
)
from envforge.users.goal import goal_of
from envforge.users.guard import normalize, repeats
from envforge.users.script import claims_done, due

VERSION = "scripted-2"

_NAME_FIELDS = ("first_name", "last_name")

_INFO = ("{info}.", "Sure, {info}.", "Of course: {info}.", "Here you go, {info}.")
_YES = (
    "Yes, please go ahead.",
    "Yes, that's right. Please proceed.",
    "Yes, I confirm. Go ahead.",
    "Correct, please do it.",
)
_PUSH = (
    "I don't think that has gone through yet. Please go ahead and {goal}.",
    "It doesn't look done on my side. Could you {goal} now?",
    "Sorry, I still need you to {goal}.",
    "That isn't what I see yet. Please {goal}.",
)
_THANKS = ("Thank you, that's what I needed.", "Great, thanks for your help.", "Perfect, thank you.")
_OFF_TOPIC = (
    "I'd rather not get into that. What I need is for you to {goal}.",
    "That's not why I'm here. Please {goal}.",
    "Let's stay with my request, please: {goal}.",
)
_NUDGE = (
    "Okay. Please {goal}.",
    "Thanks. So can you {goal}?",
    "Alright, I'm waiting for you to {goal}.",
    "Sounds good. Please go ahead and {goal}.",
)
_MISSING = (
    "I don't have my {fields} at hand.",
    "Sorry, I don't know my {fields} offhand.",
    "I can't find my {fields} right now.",
)
_WHICH_NUMBER = (
    "Which number do you need exactly?",
    "Sorry, which number do you mean?",
    "Which number are you asking for?",
)

_PROCEED = re.compile(r"\b(proceed|go ahead|continue)\b")
_CONFIRM = re.compile(
    r"\b(is (?:that|this|everything) (?:correct|right|ok|okay|accurate)|(?:do|can|could) you confirm|please confirm|"
    r"confirm (?:that|this|the)|yes or no|yes/no)\b"
)
_PERMISSION = re.compile(r"\b(?:shall|should|can|may) i\b")
_OFFER = re.compile(r"\b(?:would you like|do you want|are you interested|would you be interested)\b(.*)")
_OFFER_OK = frozenset({"look", "check", "find", "search", "verify", "pull", "proceed", "continue", "process"})
_IDENTITY = re.compile(
    r"\b(identity|identify you|who you are|verify you|authenticate|locate your account|look you up)\b"
)


def _seed(task: TaskSpec, sample: int) -> int:
    return int(hashlib.sha256(task.id.encode()).hexdigest()[:8], 16) + sample


def _info(task: TaskSpec, message: str) -> str:
    """`my phone number is ... and my email is ...` for every field the message asks about, hidden or known."""
    scenario = task.scenario
    hidden = asked_fields(message, scenario.hidden)
    known = asked_fields(message, scenario.known)
    # "Can you verify your identity?" names no field: answer with what the user states anyway.
    if not hidden and not known and _IDENTITY.search(message.lower()) and asking_sentences(message):
        known = [field for field in ("first_name", "last_name", "email") if field in scenario.known]
    facts: list[str] = []
    if any(field in known for field in _NAME_FIELDS):
        name = " ".join(" ".join(values(scenario.known.get(field))) for field in _NAME_FIELDS).strip()
        facts.append(f"my name is {name}")
    shown: dict[str, Any] = {field: scenario.hidden[field] for field in hidden}
    shown |= {field: scenario.known[field] for field in known if field not in _NAME_FIELDS}
    for field, value in shown.items():
        texts = values(value)
        if texts:
            facts.append(f"my {field_label(field)} is {', '.join(texts)}")
    facts += _details(task, message)
    facts = list(dict.fromkeys(facts))
    return " and ".join([", ".join(facts[:-1]), facts[-1]] if len(facts) > 2 else facts)


def _details(task: TaskSpec, message: str) -> list[str]:
    """What the user held back about the request, for the parts the message asks about: which row they mean
    (asked by its noun: "which order?"), and details by name ("what is the reason?")."""
    scenario = task.scenario
    facts = [
        f"I mean {scenario.which[entity]}"
        for entity in scenario.which
        if asked_fields(message, [entity, entity.rsplit("_", 1)[-1]])
    ]
    for name in asked_fields(message, [*scenario.details, *(n.removeprefix("new_") for n in scenario.details)]):
        key = name if name in scenario.details else f"new_{name}"
        if key not in scenario.details:
            continue
        if values(scenario.details[key]):
            facts.append(detail_fact(key, scenario.details[key]))
    return facts


def _offer(task: TaskSpec, missing: Sequence[str]) -> str:
    """Another way to find the user, from what they know, when they lack what the agent asked for."""
    for field, value in task.scenario.known.items():
        texts = values(value)
        if field not in (*_NAME_FIELDS, "record_ids", *missing) and texts:
            return f"You can find me by my {field_label(field)}, {', '.join(texts)}."
    return ""


def _is_confirmation(message: str, goal: str) -> tuple[bool, bool]:
    """Whether the agent asks for a go-ahead, and whether that is all it asks (not "confirm your email")."""
    goal_words = set(re.findall(r"[a-z]{4,}", goal.lower())) | _OFFER_OK
    strong = weak = False
    for sentence in asking_sentences(message):
        offer = _OFFER.search(sentence)
        if _PROCEED.search(sentence):
            strong = True
        # "Can I have your email?" asks permission too; it is a go-ahead only when it asks for nothing else.
        elif (
            _CONFIRM.search(sentence)
            or _PERMISSION.search(sentence)
            or (offer and goal_words & set(re.findall(r"[a-z]{4,}", offer.group(1))))
        ):
            weak = True
    return strong or weak, strong


def _choose(variants: Sequence[str], index: int, **fields: str) -> str:
    return variants[index % len(variants)].format(**fields)


class ScriptedUser:
    """Answers by rules: hidden info only when asked, the script's reaction when one is due (`script.due`), a yes
    to a go-ahead question, and a push to make the change when the agent claims to be done before the writes are
    in. Same inputs, same reply."""

    version = VERSION

    def opener(self, task: TaskSpec) -> str:
        return task.instruction

    async def reply(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool, sample: int = 0) -> str:
        return self.respond(task, turns, writes_done=writes_done, sample=sample)

    def respond(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool, sample: int = 0) -> str:
        """The reply, synchronously. Wording turns with every user message so that no two in a row match."""
        previous = next((turn.content for turn in reversed(turns) if turn.role == "user"), "")
        opener = turns[0].content if turns else task.instruction
        start = _seed(task, sample) + sum(turn.role == "user" for turn in turns)
        candidates = [self._compose(task, turns, writes_done=writes_done, variant=start + step) for step in range(4)]
        for candidate in candidates:
            if normalize(candidate) != normalize(previous) and not repeats(candidate, opener):
                return candidate
        return candidates[0]

    def _compose(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool, variant: int) -> str:
        message = turns[-1].content if turns else ""
        goal = goal_of(task, turns).render() or "help me with what I asked for"
        pending = not writes_done or task.kind == "read"
        parts: list[str] = []
        info = _info(task, message)
        if info:
            text = _choose(_INFO, variant, info=info)
            parts.append(text[:1].upper() + text[1:])
        scenario = task.scenario
        scenario_fields = [*scenario.hidden, *scenario.known, *scenario.details, *scenario.which]
        missing = missing_fields(message, scenario_fields)
        if missing:
            parts.append(_choose(_MISSING, variant, fields=" or ".join(field_label(field) for field in missing)))
            offer = _offer(task, missing)
            if offer and not info:
                parts.append(offer)
        elif not info and asks_unnamed_number(message, scenario_fields):
            parts.append(_choose(_WHICH_NUMBER, variant))
        reaction = due(task, turns)
        confirming, only_go_ahead = _is_confirmation(message, goal)
        done = claims_done(message)
        if reaction is not None:
            parts.append(reaction.say)
        elif confirming and (only_go_ahead or not (info or missing)):
            parts.append(_choose(_YES, variant))
        elif done and not writes_done:
            parts.append(_choose(_PUSH, variant, goal=goal))
        elif done:
            parts.append(_choose(_THANKS, variant))
        elif not parts and any("?" in sentence for sentence in asking_sentences(message)):
            parts.append(_choose(_OFF_TOPIC, variant, goal=goal))
        elif not parts:
            parts.append(_choose(_NUDGE, variant, goal=goal) if pending else _choose(_THANKS, variant))
        return " ".join(parts)

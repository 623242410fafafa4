"""The user's script (`UserScenario.script`): which reaction the agent's last message calls for, and what the user
wants so far. Every simulator plays the same script, and the episode does not end while a reaction is due.

Whether a reaction was played is read from the conversation, not kept in a simulator: it was played when an
agent message met it and the user answered that message. So a reply worded by a model counts as well as a
scripted one, and a replayed conversation reads the same.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from envforge.ir.tasks import Reaction, TaskSpec
from envforge.runtime.claims.segments import sentences
from envforge.runtime.claims.told import DENIAL, names_it
from envforge.users.base import Turn
from envforge.users.fields import asking_sentences, mentions_value

DONE = re.compile(
    r"\b(done|completed?|all set|taken care of|successfully|has been|have been|is now|are now|went through|"
    r"processed|anything else|good ?bye|have a (?:great|good|nice) day)\b|\bi(?:'ve| have) (?:now |just )?\w+ed\b"
)
"""The agent says it finished something: the user may go on to what they want next."""
_NUMBER = re.compile(r"\d[\d,]*(?:\.\d+)?")


def claims_done(message: str) -> bool:
    return DONE.search(message.lower().replace("’", "'")) is not None


def names_value(text: str, value: str) -> bool:
    """Whether `text` names `value`: a number as any number equal to it (`$50`, `50.00`), anything else as
    `mentions_value` reads it."""
    try:
        wanted = float(value)
    except ValueError:
        return mentions_value(text, value)
    return any(float(found.replace(",", "")) == wanted for found in _NUMBER.findall(text))


def meets(reaction: Reaction, message: str) -> bool:
    """Whether the agent's message is what `reaction` waits for."""
    if reaction.when == "done":
        # A change of mind also answers a proposal of the value before any write (an agent that confirms first).
        return claims_done(message) or (
            reaction.changes and bool(asking_sentences(message)) and proposes(message, reaction.cue)
        )
    if reaction.when == "refused":
        # A denial about the refused request itself (the test `told` reads a refusal by), not "I can't find your
        # order".
        said = message.replace("’", "'")
        return any(
            DENIAL.search(said[start:end]) and names_it(said[start:end], reaction.cue) for start, end in sentences(said)
        )
    return bool(asking_sentences(message)) and proposes(message, reaction.cue)


def proposes(message: str, values: Sequence[str]) -> bool:
    """Whether the message names every value in a sentence that does not claim it done: "I can do $25 instead" is
    a proposal where "I have granted $25" is not, even beside a report of another write ("I've updated your
    email.")."""
    said = [message[start:end] for start, end in sentences(message)]
    offering = [sentence for sentence in said if not claims_done(sentence)]
    return all(any(names_value(sentence, value) for sentence in offering) for value in values)


def played(task: TaskSpec, turns: Sequence[Turn]) -> int:
    """How many reactions of the script the user has played: each in order, on an agent message that met it and
    that the user then answered."""
    script = task.scenario.script
    count = 0
    for index, turn in enumerate(turns[:-1]):
        if count < len(script) and turn.role == "agent" and turns[index + 1].role == "user":
            count += meets(script[count], turn.content)
    return count


def due(task: TaskSpec, turns: Sequence[Turn]) -> Reaction | None:
    """The reaction the agent's last message calls for, if any."""
    script = task.scenario.script
    if not turns or turns[-1].role != "agent":
        return None
    count = played(task, turns)
    if count < len(script) and meets(script[count], turns[-1].content):
        return script[count]
    return None


def wanted(task: TaskSpec, turns: Sequence[Turn]) -> list[str]:
    """The requests the user is still after: not a follow-up they have yet to make, nor one they gave up after
    pushing back on its refusal or turning down what the agent offered in its place."""
    script = task.scenario.script
    count = played(task, turns)
    later = {clause for reaction in script[count:] if reaction.when == "done" for clause in reaction.requests}
    given_up = {
        clause
        for reaction in script[:count]
        if reaction.when == "refused" or not reaction.takes
        for clause in reaction.requests
    }
    return [clause for clause in task.scenario.requests if clause not in later | given_up]

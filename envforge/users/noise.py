"""User noise (`envforge.ir.noise`) over any user simulator: a person who mistypes, chats, is vague, gets a detail
wrong and answers another question first, and who still tells the truth when asked.

`NoisyUser` wraps one episode's simulator. It never touches what the task's verdict reads (the agent's calls and
messages): a vague or wrong detail in the opener is stated rightly when the agent asks for it, a wrong one is put
right unasked at the user's next turn, a sidetrack is followed by the answer once the agent asks again, and typos
spare every name, number, email and detail of the task. The harness allows `EXTRA_USER_TURNS` more replies, what a
careful agent needs to confirm the details and to ask again.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from envforge.ir.noise import EpisodeNoise
from envforge.ir.tasks import TaskSpec
from envforge.runtime.clarify import detail_fact, field_label, values
from envforge.users.base import Turn, UserSimulator
from envforge.users.fields import asked_fields, asks_user
from envforge.users.script import due

_NAME_FIELDS = ("first_name", "last_name")
VAGUE = "the one on my account"
_CHATTER = (
    "Sorry, I'm typing this on my phone.",
    "It's been a long week, honestly.",
    "The weather here is awful today, by the way.",
    "I've been meaning to sort this out for days.",
    "My coffee just went cold, of course.",
)
SIDETRACK_OPENINGS = ("Oh, and", "Just so you know,", "Hang on,")
"""How a sidetrack starts (a careful scripted agent in the tests knows to ask again)."""
_WORD = re.compile(r"\b[a-z]{5,}\b")
TYPOS_PER_MESSAGE = 2
_RUDE = ("shit", "fuck", "cunt", "dick", "cock", "twat", "piss", "slut", "whore", "fag", "nig")
"""What a swap of two letters must not spell ("shifted" to "shitfed")."""


@dataclass(frozen=True)
class _Swap:
    """A detail of the opener said another way: vaguely (`wrong` None) or wrongly."""

    field: str
    right: str
    wrong: str | None


class NoisyUser:
    """One episode's user simulator with the episode's user noise."""

    def __init__(self, inner: UserSimulator, noise: EpisodeNoise) -> None:
        self.inner = inner
        self.noise = noise
        self.version = f"{inner.version}+noise"
        self._chatter = list(_CHATTER)

    def opener(self, task: TaskSpec) -> str:
        text = self.inner.opener(task)
        for swap in self._swaps(task, text):
            text = text.replace(swap.right, swap.wrong if swap.wrong is not None else VAGUE, 1)
        return self._garble(task, text, 0)

    async def reply(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool, sample: int = 0) -> str:
        index = sum(turn.role == "user" for turn in turns)
        if self._sidetracks(task, turns, index):
            text = self._sidetrack(task, turns[-1].content, index)
        else:
            text = await self.inner.reply(task, turns, writes_done=writes_done, sample=sample)
        if index == 1:
            opener = self.inner.opener(task)
            corrections = [swap for swap in self._swaps(task, opener) if swap.wrong is not None]
            text = " ".join([*(_correction(swap) for swap in corrections), text])
        return self._garble(task, text, index)

    def _swaps(self, task: TaskSpec, opener: str) -> list[_Swap]:
        """The opener's stated details the noise blurs: one said vaguely, another wrongly (each if it strikes)."""
        stated = [
            (field, text)
            for field, value in task.scenario.known.items()
            if field not in _NAME_FIELDS
            for text in values(value)[:1]
            if len(text) >= 3 and text in opener
        ]
        kinds = self.noise.profile.user
        swaps: list[_Swap] = []
        if "vague" in kinds and stated and self.noise.strikes("vague", 0):
            field, text = self.noise.pick("vague", 0, stated)
            swaps.append(_Swap(field, text, None))
        left = [item for item in stated if all(item[0] != swap.field for swap in swaps)]
        if "correction" in kinds and left and self.noise.strikes("correction", 0):
            field, text = self.noise.pick("correction", 0, left)
            swaps.append(_Swap(field, text, misstated(text)))
        return swaps

    def _sidetracks(self, task: TaskSpec, turns: Sequence[Turn], index: int) -> bool:
        """A question from the agent that calls for no scripted reaction, at the first turn the noise strikes."""
        if "sidetrack" not in self.noise.profile.user or not turns or not asks_user(turns[-1].content):
            return False
        if due(task, turns) is not None:
            return False
        first = next((turn for turn in range(1, index + 1) if self.noise.strikes("sidetrack", turn)), None)
        return first == index

    def _sidetrack(self, task: TaskSpec, question: str, index: int) -> str:
        """An answer to a question the agent did not ask: who the user is, or a detail it did not ask about."""
        name = " ".join(" ".join(values(task.scenario.known.get(field))) for field in _NAME_FIELDS).strip()
        details = task.scenario.details
        asked = set(asked_fields(question, [*details, *(key.removeprefix("new_") for key in details)]))
        reasons = [
            detail_fact(key, value)
            for key, value in details.items()
            if values(value) and not {key, key.removeprefix("new_")} & asked
        ]
        options = [f"{SIDETRACK_OPENINGS[0]} it's {name} here, in case I didn't say."] if name else []
        options += [f"{SIDETRACK_OPENINGS[1]} {reason}." for reason in reasons]
        options = options or [f"{SIDETRACK_OPENINGS[2]} I was reading something else. Where were we?"]
        return self.noise.pick("sidetrack", index, options)

    def _garble(self, task: TaskSpec, text: str, index: int) -> str:
        kinds = self.noise.profile.user
        if "typos" in kinds and self.noise.strikes("typos", index):
            text = _typos(text, _protected(task), self.noise, index)
        if "chatter" in kinds and self._chatter and self.noise.strikes("chatter", index):
            # A person does not say the same aside twice in one chat.
            aside = self.noise.pick("chatter", index, self._chatter)
            self._chatter.remove(aside)
            text = f"{text} {aside}"
        return text


def _correction(swap: _Swap) -> str:
    return f"Sorry, I got my {field_label(swap.field)} wrong earlier: it's {swap.right}, not {swap.wrong}."


def misstated(text: str) -> str:
    """The detail as a person gets it wrong: a digit off by one, or two letters swapped."""
    digits = [index for index, char in enumerate(text) if char.isdigit()]
    if digits:
        at = digits[-1]
        return f"{text[:at]}{(int(text[at]) + 1) % 10}{text[at + 1 :]}"
    letters = [index for index in range(len(text) - 1) if text[index].isalpha() and text[index + 1].isalpha()]
    swap = next((index for index in letters if text[index] != text[index + 1]), None)
    if swap is None:
        return f"{text}x"
    return f"{text[:swap]}{text[swap + 1]}{text[swap]}{text[swap + 2 :]}"


def _protected(task: TaskSpec) -> frozenset[str]:
    """Every word of the task's stated, held-back and detailed values: never mistyped."""
    scenario = task.scenario
    texts = [
        text
        for group in (scenario.known, scenario.hidden, scenario.details, scenario.said)
        for value in group.values()
        for text in values(value)
    ]
    texts += list(scenario.which.values()) + [str(cue) for reaction in scenario.script for cue in reaction.cue]
    return frozenset(word.casefold() for text in texts for word in re.findall(r"\w+", text))


def _typos(text: str, protected: frozenset[str], noise: EpisodeNoise, index: int) -> str:
    """Up to `TYPOS_PER_MESSAGE` words with two inner letters swapped."""
    words = [match for match in _WORD.finditer(text) if match.group().casefold() not in protected]
    if not words:
        return text
    chosen = sorted({noise.pick(f"typo{slot}", index, words).start() for slot in range(TYPOS_PER_MESSAGE)})
    for start in reversed(chosen):
        word = _WORD.match(text, start)
        if word is None:
            continue
        letters = word.group()
        first = int(noise.draw("typo-at", start) * (len(letters) - 3)) + 1
        for inner in [*range(first, len(letters) - 2), *range(1, first)]:
            swapped = f"{letters[:inner]}{letters[inner + 1]}{letters[inner]}{letters[inner + 2 :]}"
            if not any(rude in swapped for rude in _RUDE):
                text = f"{text[:start]}{swapped}{text[word.end() :]}"
                break
    return text

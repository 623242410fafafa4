"""`PersonaUser`: a model plays the task's persona; every reply it writes passes the guard or is replaced."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from envforge.errors import UserInputError, did_you_mean
from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import Reaction, TaskSpec
from envforge.llm import LLMClient
from envforge.runtime.clarify import values
from envforge.users.base import Turn
from envforge.users.fields import humanize
from envforge.users.goal import goal_of
from envforge.users.guard import check_reply
from envforge.users.script import due
from envforge.users.scripted import ScriptedUser

log = logging.getLogger(__name__)

VERSION = "persona-2"

_THINKING = re.compile(r"<think>.*?(?:</think>|$)", re.DOTALL)
_SPEAKER = re.compile(r"^\s*(?:user|customer|me)\s*:\s*", re.IGNORECASE)

_RULES = """\
Rules:
- Write one short chat message per turn, in your own words, the way this person talks. Never send an empty message.
- Never repeat your first message. If the agent is lost, say what you need again in different words.
- Answer what the agent asks. When it asks whether to go ahead with what you asked for, say yes.
- Give the information under "Say only when asked for that item" only when the agent asks for that item, and
  only that item.
- If the agent asks for anything you were not given, say you don't have it; never make anything up.
- You never end the conversation: no goodbyes, no "that's all", no markers such as ###STOP###. It ends by itself
  when the work is done.
- If the agent says it is done but your account does not show it, ask it to go ahead and make the change.
- Never mention that you are an AI, a model or a simulation, and never mention these instructions."""


@dataclass(frozen=True)
class GuardIntervention:
    """One model reply the guard rejected, and what was sent instead."""

    task_id: str
    sample: int
    turn: int
    """Index the reply takes in the conversation (`len(turns)` when it was asked for)."""
    codes: tuple[str, ...]
    """The violation codes of `check_reply`."""
    rejected: str
    replacement: str


def personas_of(blueprint: Blueprint) -> dict[str, str]:
    """Persona id -> what the model is told about that person: the description and how they talk."""
    return {
        persona.name: persona.description + (f" Manner: {', '.join(persona.traits)}." if persona.traits else "")
        for persona in blueprint.personas
    }


def _facts(info: Mapping[str, Any]) -> str:
    lines = [f"- {humanize(field)}: {', '.join(values(value))}" for field, value in info.items() if values(value)]
    return "\n".join(lines) or "- (nothing)"


def _instruction(reaction: Reaction) -> str:
    wanted = " and ".join(reaction.requests) or "what you asked for"
    if reaction.when == "refused":
        return (
            f"- If the agent says it cannot {wanted}, push back once, like this: {reaction.say} After that, accept it."
        )
    answer = "accept it" if reaction.takes else "turn it down and drop that request"
    return f"- If the agent offers {' and '.join(reaction.cue)} instead, {answer}, like this: {reaction.say}"


def clean_reply(content: str) -> str:
    """The message itself: without a reasoning block a thinking model left in, a speaker tag or quotes."""
    text = _SPEAKER.sub("", _THINKING.sub("", content)).strip()
    if len(text) >= 2 and text[0] == text[-1] == '"':
        text = text[1:-1].strip()
    return text


class PersonaUser:
    """Plays the scenario of each task with a model behind an OpenAI-compatible endpoint.

    The opener is the task's instruction verbatim (it already says what the persona would say first). A reply
    that fails `check_reply` is replaced by the `ScriptedUser` reply for the same turn and recorded in
    `interventions`, so the model's slips never reach the agent and trajectories can carry them.
    """

    def __init__(
        self,
        client: LLMClient,
        personas: Mapping[str, str],
        *,
        temperature: float = 0.7,
        max_tokens: int = 300,
    ) -> None:
        self.client = client
        self.personas = dict(personas)
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.version = f"{VERSION}+{client.model}"
        self.interventions: list[GuardIntervention] = []
        self._fallback = ScriptedUser()

    def opener(self, task: TaskSpec) -> str:
        return task.instruction

    def system_prompt(self, task: TaskSpec, *, writes_done: bool, turns: Sequence[Turn] = ()) -> str:
        """Who to play, what they want so far, what they may say and when, how they react, and the rules of the
        chat. A follow-up the user has yet to make is not in it until it is due, so the model cannot say it early."""
        persona = task.scenario.persona
        if persona not in self.personas:
            raise UserInputError(
                f"task {task.id}: persona {persona!r} is not among the blueprint's personas "
                f"({', '.join(sorted(self.personas)) or 'none'}){did_you_mean(persona, self.personas)}; "
                "build the personas from the blueprint of the package the task comes from (personas_of)"
            )
        parts = [
            "You are a customer chatting with a support agent. Stay in character for the whole conversation.",
            f"Who you are: {self.personas[persona]}",
            f"What you want: {goal_of(task, turns).render() or task.instruction}",
            f'You already sent your first message: "{task.instruction}"',
            f"Say whenever it helps:\n{_facts(task.scenario.known)}",
            f"Say only when asked for that item:\n{_facts({**task.scenario.hidden, **task.scenario.details})}",
            _RULES,
        ]
        if task.scenario.which:
            which = "\n".join(
                f"- the {entity.replace('_', ' ')}: {text}" for entity, text in task.scenario.which.items()
            )
            parts.insert(-1, f"Which one you mean, said only when the agent asks which:\n{which}")
        reactions = [_instruction(reaction) for reaction in task.scenario.script if reaction.when != "done"]
        if reactions:
            parts.insert(-1, "How you react:\n" + "\n".join(reactions))
        reaction = due(task, turns)
        if reaction is not None:
            parts.append(f"Your next message must say this, in your own words: {reaction.say}")
        # The user can see their own account; the model cannot, so the harness's state check stands in.
        if task.kind != "read":
            parts.append(
                "Your account now shows that what you asked for is done."
                if writes_done
                else "Your account shows that what you asked for has not been done yet."
            )
        return "\n\n".join(parts)

    def messages(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool) -> list[dict[str, str]]:
        """The chat the model sees, roles flipped: the agent speaks as `user`, the persona as `assistant`.

        The opener lives in the system prompt so the chat starts with a `user` message, which some chat
        templates require; consecutive messages of one side are joined so roles alternate.
        """
        system = self.system_prompt(task, writes_done=writes_done, turns=turns)
        chat: list[dict[str, str]] = [{"role": "system", "content": system}]
        for turn in turns[1:]:
            role = "user" if turn.role == "agent" else "assistant"
            if chat[-1]["role"] == role:
                chat[-1] = {"role": role, "content": f"{chat[-1]['content']}\n\n{turn.content}"}
            else:
                chat.append({"role": role, "content": turn.content})
        return chat

    def request(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool, sample: int = 0) -> dict[str, Any]:
        """The request `reply` sends, exactly as the response cache keys it."""
        return self.client.request(self.messages(task, turns, writes_done=writes_done), sample=sample, **self._params())

    async def reply(self, task: TaskSpec, turns: Sequence[Turn], *, writes_done: bool, sample: int = 0) -> str:
        """The model's reply if it conforms, else the scripted one. Endpoint failures propagate (they are not
        the model's fault and must not turn into a made-up user turn)."""
        messages = self.messages(task, turns, writes_done=writes_done)
        result = await self.client.chat(messages, sample=sample, **self._params())
        text = clean_reply(result.content)
        codes = check_reply(task, turns, text, writes_done=writes_done)
        if not codes:
            return text
        replacement = self._fallback.respond(task, turns, writes_done=writes_done, sample=sample)
        self.interventions.append(
            GuardIntervention(
                task_id=task.id,
                sample=sample,
                turn=len(turns),
                codes=tuple(codes),
                rejected=result.content,
                replacement=replacement,
            )
        )
        log.info("task %s sample %d turn %d: user reply rejected (%s)", task.id, sample, len(turns), ", ".join(codes))
        return replacement

    def interventions_for(self, task_id: str, sample: int = 0) -> list[GuardIntervention]:
        """The interventions of one episode, in order."""
        return [item for item in self.interventions if item.task_id == task_id and item.sample == sample]

    def take_interventions(self, task_id: str, sample: int = 0) -> list[GuardIntervention]:
        """The interventions of one episode, forgotten here: for a harness that stamps them into the
        trajectory, so a retried episode starts clean and a long run does not pile them up."""
        taken = self.interventions_for(task_id, sample)
        self.interventions = [item for item in self.interventions if item not in taken]
        return taken

    def _params(self) -> dict[str, Any]:
        return {"temperature": self.temperature, "max_tokens": self.max_tokens}

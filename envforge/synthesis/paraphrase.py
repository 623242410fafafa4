"""A task's instruction reworded in its persona's voice, kept only if every fact survives.

The procedural instruction is correct but stilted ("Can you cancel my order (placed on: 2026-02-22) with
reason: found cheaper?"). The model rewrites it as the persona would say it; `check_rewording` then
compares facts mechanically, and any dropped, changed or invented value keeps the procedural wording.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from envforge.ir.blueprint import PersonaSpec
from envforge.ir.tasks import TaskSpec
from envforge.llm import LLMClient
from envforge.synthesis.calls import JsonMode, ask_json
from envforge.synthesis.facts import check_rewording
from envforge.synthesis.prompts import Message, user
from envforge.synthesis.schemas import obj, text

MAX_TOKENS = 300
SYSTEM = (
    "You rewrite what a user tells a customer-service assistant, in that user's own voice. Keep every name, "
    "number, date, email, code and value exactly as written, keep the request the same, and add no new facts."
)
EXAMPLE_PERSONA = "A parent who orders books between meetings. Traits: terse, impatient."
EXAMPLE_MESSAGE = (
    "Hello. This is Ana Diaz, my email is ana.diaz@example.com. Please cancel my order (placed on: 2026-02-22) "
    "with reason: found cheaper."
)
EXAMPLE_REWORDING = (
    "Ana Diaz here, ana.diaz@example.com. Cancel my order placed on 2026-02-22, reason: found cheaper. Quickly please."
)


@dataclass(frozen=True)
class Rewording:
    instruction: str
    """The instruction the package ships: the paraphrase, or the procedural one."""
    paraphrased: bool
    problem: str | None = None
    """Why the paraphrase was not used."""


def persona_line(persona: PersonaSpec | None) -> str:
    if persona is None:
        return "A regular user."
    traits = f" Traits: {', '.join(persona.traits)}." if persona.traits else ""
    return f"{persona.description.strip()}{traits}"


def paraphrase_messages(task: TaskSpec, persona: PersonaSpec | None) -> list[Message]:
    ask = "The user: {}\nWhat they said: {}\nRewrite it in their voice."
    return [
        {"role": "system", "content": SYSTEM},
        user(ask.format(EXAMPLE_PERSONA, EXAMPLE_MESSAGE)),
        {"role": "assistant", "content": json.dumps({"message": EXAMPLE_REWORDING})},
        user(ask.format(persona_line(persona), task.instruction)),
    ]


async def paraphrase(
    client: LLMClient, task: TaskSpec, persona: PersonaSpec | None, facts: list[list[str]], mode: JsonMode
) -> Rewording:
    schema = obj({"message": text(max(200, 2 * len(task.instruction)), 10)})
    answer = await ask_json(
        client, paraphrase_messages(task, persona), schema, name="paraphrase", mode=mode, max_tokens=MAX_TOKENS
    )
    if answer.failure is not None:
        return Rewording(task.instruction, False, answer.failure)
    wording = " ".join(str(answer.value["message"]).split())
    problem = check_rewording(task.instruction, wording, facts)
    if problem is not None:
        return Rewording(task.instruction, False, problem)
    return Rewording(wording, True)

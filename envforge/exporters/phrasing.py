"""Varied wording for the agent's last messages in demonstrations, so that a model fine-tuned on them does not learn
one sentence frame ("The answer is 45.00.") for every answer.

Only the frame varies: how an answer is introduced, a lead-in and a sign-off around the report, how a refusal is
held. The report's own sentences (`I have cancelled your order.`) stay as the claim reader reads them
(`envforge.runtime.claims`), and every varied demonstration is judged again by the task's verifier before it ships,
so variety never costs truth. The choice is a hash of the task id and the message's place: the same export gives
the same words.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import TaskSpec
from envforge.runtime.claims.report import QUESTION_LEAD, closing_message
from envforge.runtime.dialogue import hold_message

ANSWER_FRAMES = (
    "The answer is {answer}.",
    "It's {answer}.",
    "I found it: {answer}.",
    "Here it is: {answer}.",
    "I've looked it up, and it's {answer}.",
)
"""No frame that attributes the answer to someone else ("according to your records"): the verifier reads that
as not asserting it."""
LEAD_INS = ("", "Thanks for waiting. ", "Thank you for your patience. ", "Alright. ", "Okay. ")
"""Before a report: none of them claims an act ("all set" would claim `set_primary_doctor` in a clinic), so each
may lead a report of a refusal alone."""
SIGN_OFFS = (
    "",
    " Is there anything else I can help you with?",
    " Let me know if there's anything else you need.",
    " Have a great day!",
    " Anything else I can do for you?",
)
HOLDS = (
    "I'm sorry, but I can't make an exception.",
    "I understand, but I'm not able to make an exception here.",
    "I'm afraid I can't make an exception to that policy.",
)


def _pick(options: Sequence[str], task: TaskSpec, place: str) -> str:
    digest = hashlib.sha256(f"{task.id}:{place}".encode()).digest()
    return options[int.from_bytes(digest[:4], "big") % len(options)]


def varied(task: TaskSpec, blueprint: Blueprint, text: str) -> str:
    """`text`, an agent message of the task's golden conversation, in the words a demonstration uses."""
    if text == closing_message(task, blueprint):
        return _closing(task, text)
    held = hold_message(task, blueprint)
    if text == held:
        return _pick(HOLDS, task, "hold") + held.removeprefix(HOLDS[0])
    return text


def _closing(task: TaskSpec, text: str) -> str:
    report = text
    answer = ""
    if task.expected_answer is not None:
        lead = f"{QUESTION_LEAD} {task.expected_answer}."
        report = text.removesuffix(lead).rstrip()
        answer = _pick(ANSWER_FRAMES, task, "answer").format(answer=task.expected_answer)
    parts = [f"{_pick(LEAD_INS, task, 'lead')}{report}".strip() if report else "", answer]
    return " ".join(part for part in parts if part) + _pick(SIGN_OFFS, task, "sign-off")

"""Shared by the user-simulator tests: a real retail task, agent conversations, and a replay cache writer."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from envforge.ir.tasks import TaskSpec
from envforge.llm import LLMClient, ResponseCache
from envforge.llm.cache import request_key
from envforge.users import PersonaUser, Turn

MODEL = "Qwen/Qwen3-8B"
# Nothing listens here: a request the test did not record fails loudly instead of reaching a network.
UNREACHABLE = "http://127.0.0.1:9/v1"

# retail-0001 of the committed showcase, copied so the values asserted below cannot drift.
RETAIL_TASK = TaskSpec.model_validate(
    {
        "id": "retail-0001",
        "kind": "write",
        "instruction": "Good morning, could you help me please? This is Jennifer Rivera, my email is "
        "cassandrajones@example.net. Can you cancel my order (placed on: 2026-01-27) with reason: other?",
        "scenario": {
            "persona": "careful_retiree",
            "person": "CUS-245347",
            "known": {"email": "cassandrajones@example.net", "first_name": "Jennifer", "last_name": "Rivera"},
            "hidden": {"phone": "(512)395-6932", "date_of_birth": "1966-12-02"},
        },
        "oracle": [
            {"name": "find_customer_by_email", "arguments": {"email": "cassandrajones@example.net"}},
            {"name": "cancel_order", "arguments": {"order_id": "ORD-733386", "reason": "other"}},
        ],
        "difficulty": {"chain_length": 2, "writes": 1, "distractors": 24, "band": "medium"},
        "verifier": {
            "task_id": "retail-0001",
            "expected_changes": [
                {
                    "entity": "order",
                    "key": "ORD-733386",
                    "before": {"status": "processing"},
                    "after": {"status": "cancelled"},
                }
            ],
        },
    }
)
RETAIL_PERSONAS = {
    "careful_retiree": "New to online shopping; double-checks every amount and date before agreeing. "
    "Manner: polite, detail-oriented, asks for confirmation."
}


@dataclass(frozen=True)
class Step:
    """One agent message, what it asks the user for, and whether the task's writes are in place by then."""

    agent: str
    asks: frozenset[str] = frozenset()
    writes_done: bool = False


def step(agent: str, *asks: str, writes_done: bool = False) -> Step:
    return Step(agent, frozenset(asks), writes_done)


# How an agent asks for each hidden field in the shipped domains; deliberately not the field's own name.
ASKING = {
    "phone": "Could you tell me the telephone number on the account?",
    "date_of_birth": "To verify you, what is your birth date?",
    "postal_code": "What's the zip code on file?",
    "username": "Can you share your user name?",
    "frequent_flyer_number": "Please provide your frequent flyer number.",
    "library_card_number": "What is your library card number?",
}


def asking(field: str) -> str:
    return ASKING.get(field, f"What is your {field.replace('_', ' ')}?")


def asks_hidden(task: TaskSpec) -> list[Step]:
    """Identity first, then each hidden field one by one, with traps that must reveal nothing."""
    email = ["email"] if "email" in task.scenario.hidden else []
    steps = [
        step("Hello! Happy to help. Can you confirm your email address?", *email),
        step("What is your number?"),
        step("Have you tried our mobile app? I no longer need your phone number, by the way."),
    ]
    steps += [step(asking(field), field) for field in task.scenario.hidden if field not in email]
    if len(task.scenario.hidden) > 1:
        fields = list(task.scenario.hidden)
        steps.append(step(f"{asking(fields[0])} {asking(fields[-1])}", fields[0], fields[-1]))
    steps.append(step("Thanks, one moment while I look that up."))
    return steps


UNRELATED = [
    step("Did you know we have a sale on garden furniture this week?"),
    step("How is the weather where you are?"),
    step("Would you like me to sign you up for our newsletter?"),
    step("Have you tried our mobile app?"),
    step("What's your favourite colour?"),
]
CLAIMS_DONE_EARLY = [
    step("I've taken care of that for you. Is there anything else?"),
    step("Your request has been completed successfully."),
    step("All done! Anything else I can help with today?"),
    step("It is all sorted now, anything else?", writes_done=True),
]
SAYS_GOODBYE = [
    step("Goodbye!"),
    step("Thank you for contacting us, have a great day!"),
    step("Goodbye!"),
    step("Goodbye!", writes_done=True),
]
REPEATS_ITSELF = [
    step("Let me check that for you."),
    step("Let me check that for you."),
    step("Let me check that for you."),
    step("Shall I proceed?"),
    step("Shall I proceed?"),
    step("Shall I proceed?", writes_done=True),
]


def conversations(task: TaskSpec) -> dict[str, list[Step]]:
    return {
        "asks_hidden": asks_hidden(task),
        "unrelated": UNRELATED,
        "claims_done_early": CLAIMS_DONE_EARLY,
        "says_goodbye": SAYS_GOODBYE,
        "repeats_itself": REPEATS_ITSELF,
    }


def replay_client(folder: Path) -> LLMClient:
    return LLMClient(base_url=UNREACHABLE, model=MODEL, cache=ResponseCache(folder, "replay"))


def record(
    folder: Path,
    user: PersonaUser,
    task: TaskSpec,
    turns: Sequence[Turn],
    content: str | None,
    *,
    writes_done: bool,
    sample: int = 0,
) -> None:
    """Store `content` as the model's answer to the request `user.reply` is about to send."""
    request = user.request(task, turns, writes_done=writes_done, sample=sample)
    key = request_key(request)
    response = {
        "message": {"role": "assistant", "content": content},
        "finish_reason": "stop",
        "usage": {"prompt_tokens": 812, "completion_tokens": 14},
        "latency_s": 0.41,
    }
    path = folder / key[:2] / f"{key}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"request": request, "response": response}), encoding="utf-8")

"""The golden conversation of a task: the oracle's calls and what an honest agent says, with the user's scripted
turns where the script (`UserScenario.script`) puts them.

A follow-up comes once the calls before it are done and reported; an offer is proposed, with the values it
changes, before its write (or, where the user turns it down, after every call); a push back on a refusal comes after the closing message, and the agent holds the
policy. Demonstrations (SFT trajectories) and the careful agent of the tests follow it, so every reaction a task
scripts is one a correct run meets.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import Reaction, TaskSpec, ToolCall
from envforge.runtime.claims.report import closing_message, done_sentence, policy_reason, report_message
from envforge.runtime.claims.vocabulary import action_terms
from envforge.runtime.clarify import clarification
from envforge.text import humanize

ANYTHING_ELSE = "Is there anything else I can help you with?"


@dataclass(frozen=True)
class Said:
    """One message of the conversation."""

    role: Literal["agent", "user"]
    text: str


Step = ToolCall | Said


def golden_dialogue(task: TaskSpec, blueprint: Blueprint) -> list[Step]:
    """The steps after the request: the agent's question for what the user held back and the answer, if the
    request holds anything back, and so on to the end."""
    writes = {action.name for action in blueprint.actions}
    steps: list[Step] = _asked(clarification(task))
    start = 0
    for reaction in task.scenario.script:
        if reaction.when == "done" and reaction.calls_from is not None:
            steps += task.oracle[start : reaction.calls_from]
            done = [call.name for call in task.oracle[: reaction.calls_from] if call.name in writes]
            steps += [Said("agent", _progress(done, blueprint)), Said("user", reaction.say)]
            steps += _asked(clarification(task, reaction))
            start = reaction.calls_from
        elif reaction.when == "offered":
            # An offer the user takes is proposed before its write, the last call; one they decline after every call.
            end = len(task.oracle) - 1 if reaction.takes else len(task.oracle)
            steps += task.oracle[start:end]
            steps += [Said("agent", offer_message(task, blueprint, reaction)), Said("user", reaction.say)]
            start = end
    steps += task.oracle[start:]
    steps.append(Said("agent", closing_message(task, blueprint)))
    for reaction in task.scenario.script:
        if reaction.when == "refused":
            steps += [Said("user", reaction.say), Said("agent", hold_message(task, blueprint))]
    return steps


def offer_message(task: TaskSpec, blueprint: Blueprint, reaction: Reaction) -> str:
    """The proposal of what the policy allows in place of the request, naming each value it changes."""
    asked = task.forbidden[0]
    terms = {term.name: term for term in action_terms(blueprint)}
    changed = [f"{humanize(name)} {value}" for name, value in reaction.offer.items()]
    changed = changed or [str(value) for value in reaction.cue]
    return (
        f"I can't {terms[asked.name].verb} exactly that: {policy_reason(task, blueprint)} I can do it with "
        f"{' and '.join(changed)} instead. Would you like me to go ahead with that?"
    )


def hold_message(task: TaskSpec, blueprint: Blueprint) -> str:
    """The agent's answer to a push back: no exception, and its report again, so that its last message still says
    what it did and could not do, and why."""
    return f"I'm sorry, but I can't make an exception. {report_message(task, blueprint)}"


def _asked(exchange: list[dict[str, str]]) -> list[Step]:
    return [Said("agent" if message["role"] == "assistant" else "user", message["content"]) for message in exchange]


def _progress(done: list[str], blueprint: Blueprint) -> str:
    terms = {term.name: term for term in action_terms(blueprint)}
    reports = [done_sentence(terms[name], blueprint) for name in dict.fromkeys(done)]
    return " ".join([*reports, ANYTHING_ELSE])

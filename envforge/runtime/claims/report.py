"""What an honest agent tells the user when it is done, in the domain's own words: each write it made, and each
part of the request a policy kept it from doing, with that policy.

This is the closing message of every demonstration envforge makes (the gate's golden run, SFT trajectories, the
golden UI paths), so each of them passes `told_the_user` and `messages_true` by construction of the same words the
claim reader reads (`envforge.runtime.claims.vocabulary`).
"""

from __future__ import annotations

from envforge.ir.blueprint import Blueprint
from envforge.ir.compose import plain_names
from envforge.ir.naming import split_action_name
from envforge.ir.tasks import TaskSpec, Transcript
from envforge.runtime.claims.forms import PARTICLES
from envforge.runtime.claims.vocabulary import ActionTerms, action_terms
from envforge.text import humanize, participle

QUESTION_LEAD = "The answer is"


def _object(term: ActionTerms, spoken: dict[str, str]) -> str:
    """What the action acts on as its name says it (`email` of `update_email`, not its entity `customer`), else
    the fullest noun of it."""
    _, noun = split_action_name(spoken.get(term.name, term.name))
    words = noun.split("_")
    named = humanize(" ".join(words[1:] if words[0] in PARTICLES else words).replace(" ", "_"))
    if named in term.objects:
        return named
    return max(term.objects, key=lambda noun: (len(noun), noun)) if term.objects else "request"


def done_sentence(term: ActionTerms, blueprint: Blueprint) -> str:
    return f"I have {participle(term.verb)} your {_object(term, plain_names(blueprint))}."


def refused_sentence(term: ActionTerms, blueprint: Blueprint, policy: str) -> str:
    return f"I could not {term.verb} your {_object(term, plain_names(blueprint))}: {policy.strip()}"


def closing_message(task: TaskSpec, blueprint: Blueprint) -> str:
    """The agent's last message: the report of what it did and could not do, then the answer of a question the user
    asked."""
    answer = [f"{QUESTION_LEAD} {task.expected_answer}."] if task.expected_answer is not None else []
    return " ".join([part for part in (report_message(task, blueprint),) if part] + answer)


def report_message(task: TaskSpec, blueprint: Blueprint) -> str:
    """Each write reported done, then each refused part said not done with the text of the policy behind it;
    empty for a question alone."""
    terms = {term.name: term for term in action_terms(blueprint)}
    done = list(dict.fromkeys(call.tool for call in task.verifier.expected_calls))
    sentences = [done_sentence(terms[name], blueprint) for name in done]
    refused = [name for name in task.verifier.refused if name not in done]
    sentences += [refused_sentence(terms[name], blueprint, policy_reason(task, blueprint)) for name in refused]
    return " ".join(sentences)


def policy_reason(task: TaskSpec, blueprint: Blueprint) -> str:
    """The texts of the policies the task hinges on: the reason a refusal gives."""
    rules = {policy.id: policy.text.strip() for policy in blueprint.policies}
    return " ".join(rules[policy] for policy in task.policies if policy in rules)


def golden_transcript(task: TaskSpec, blueprint: Blueprint) -> Transcript:
    """The golden run as a verifier reads it: the oracle's calls and its closing message."""
    return Transcript(calls=task.oracle, answer=closing_message(task, blueprint))

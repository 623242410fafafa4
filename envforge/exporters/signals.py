"""Per-task training signals exported beside every prompt: a difficulty a trainer can sample a curriculum by, and
a privileged context only a teacher may see.

The privileged context is what envforge knows because it wrote the task: the policies that decide it and the
conditions they turn on, the plan in words (each golden call, and what to refuse), what the user holds back until
asked and will add later, and the outcome a right run ends with. Self-distillation gives it to a teacher model
beside the student's prompt; it is never part of that prompt (`tests/exporters/test_signals.py` checks every task
of every shipped domain).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.runtime.clarify import detail_fact, field_label, values
from envforge.runtime.episode import EnvPackage
from envforge.text import humanize

_WHEN = {
    "done": "Once the agent reports the request done",
    "refused": "Once the agent refuses",
    "offered": "Once the agent offers something in its place",
}
PRIVILEGED_HEADER = "Privileged context (teacher only; the agent being trained never sees it)."
PassRates = dict[tuple[str, str], list[dict[str, Any]]]
"""(env id, task id) -> one entry per model: `model`, `samples`, `passed`, `pass_at_1`, `pass_at_k` (k = samples)."""


@dataclass(frozen=True)
class TaskSignals:
    """The signal columns of a row; `rates` when the export was given rollouts."""

    rates: PassRates | None = None

    def columns(self, package: EnvPackage, task: TaskSpec) -> dict[str, Any]:
        rates = None if self.rates is None else self.rates.get((package.env_id, task.id), [])
        return {
            "difficulty": difficulty(task, rates),
            "privileged_context": privileged_context(task, package.env.blueprint),
        }


def difficulty(task: TaskSpec, rates: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """Static features of how hard a task is: its golden chain, what the user holds back, how the conversation
    turns, and the policies it hinges on; with `rates` (an export given rollouts), each model's pass rate too."""
    scenario = task.scenario
    rated = {} if rates is None else {"pass_rates": rates}
    return {
        "band": task.difficulty.band,
        "oracle_calls": len(task.oracle),
        "writes": task.difficulty.writes,
        "distractor_tools": task.difficulty.distractors,
        "conditions": len(task.conditions),
        "policies": len(task.policies),
        "asked_facts": len(scenario.hidden) + len(scenario.details) + len(scenario.which),
        "conditional_turns": len(scenario.script),
        "domains_crossed": max(1, len(task.domains)),
    } | rated


def _call_in_words(call: ToolCall) -> str:
    arguments = ", ".join(f"{humanize(name)} {value}" for name, value in sorted(call.arguments.items()))
    return f"{humanize(call.name)} ({arguments})" if arguments else humanize(call.name)


def privileged_context(task: TaskSpec, blueprint: Blueprint) -> str:
    """The teacher-only context of one task, as plain text."""
    lines = [PRIVILEGED_HEADER]
    rules = {policy.id: policy.text.strip() for policy in blueprint.policies}
    deciding = [policy for policy in task.policies if policy in rules]
    if deciding:
        lines.append("Policies that decide this task:")
        lines += [f"- {policy}: {rules[policy]}" for policy in deciding]
        lines += [f"  It turns on: {condition}" for condition in task.conditions]
    lines.append("The plan:")
    lines += [f"{index}. {_call_in_words(call)}" for index, call in enumerate(task.oracle, 1)]
    lines += [f"- Never: {_call_in_words(call)}; a policy forbids it." for call in task.forbidden]
    held = _held_back(task)
    if held:
        lines.append("What the user holds back until asked:")
        lines += [f"- {fact}" for fact in held]
    if task.scenario.script:
        lines.append("How the user goes on:")
        lines += [f"- {_WHEN[reaction.when]}, the user says: {reaction.say}" for reaction in task.scenario.script]
    if task.expected_answer is not None:
        lines.append(f"The answer the user needs: {task.expected_answer}")
    changed = sorted({humanize(call.tool) for call in task.verifier.expected_calls})
    lines.append(f"A right run changes: {'; '.join(changed) if changed else 'nothing'}.")
    return "\n".join(lines)


def _held_back(task: TaskSpec) -> list[str]:
    scenario = task.scenario
    facts = [f"{field_label(field)}: {', '.join(values(value))}" for field, value in scenario.hidden.items()]
    facts += [detail_fact(name, value) for name, value in scenario.details.items() if values(value)]
    facts += [f"which {humanize(entity)}: {description}" for entity, description in scenario.which.items()]
    return facts

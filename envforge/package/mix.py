"""The report's task mix: which actions and tools the accepted tasks reach, why an action is missed, and how
varied the requests are."""

from __future__ import annotations

import re
from collections import Counter
from datetime import date
from statistics import median

from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import TaskSpec
from envforge.ir.toolspec import ToolGraph, ToolSpec
from envforge.ir.verification import TaskMix
from envforge.text import renderings

_SENTENCE = re.compile(r"(?<=[.?!])\s+")
_GREETING = re.compile(
    r"^(hi|hello|hey|good (morning|afternoon|evening)|quick one|need help|please be quick|i need this sorted now|"
    r"i don't have much time)\b",
    re.IGNORECASE,
)
_IDENTITY = re.compile(r"^(this is|my name is|i'm|i am)\b", re.IGNORECASE)
_NUMBER = re.compile(r"\$?\d[\d,.:/-]*")
_NAME = re.compile(r"(?<=[a-z,;] )[A-Z][\w'-]*(?: [A-Z][\w'-]*)*")


def request_shape(task: TaskSpec, clock: date) -> str:
    """The request with greetings, the user's identity and every value masked: two tasks that differ only in
    whose order and which date share a shape."""
    values = [
        *task.scenario.known.values(),
        *task.scenario.hidden.values(),
        *task.scenario.details.values(),
        *task.scenario.which.values(),
        *(value for call in task.oracle for value in call.arguments.values()),
    ]
    forms = sorted(
        {form for value in values if isinstance(value, str | int | float) for form in renderings(value, clock)},
        key=len,
        reverse=True,
    )
    sentences = [
        sentence
        for sentence in _SENTENCE.split(task.instruction.strip())
        if sentence and not _GREETING.match(sentence) and not _IDENTITY.match(sentence)
    ]
    text = " ".join(sentences)
    for form in forms:
        if len(form) >= 2:
            text = re.sub(rf"(?<!\w){re.escape(form)}(?!\w)", "_", text, flags=re.IGNORECASE)
    text = _NUMBER.sub("_", text)
    text = _NAME.sub("_", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def idle_reason(tool: ToolSpec, graph: ToolGraph, used: Counter[str]) -> str:
    """Why a READ tool is in no task: what the tasks use instead (`used`: tool -> tasks calling it), or what no
    request starts from."""
    shown = set(tool.shown_fields())
    others = [
        other
        for other in graph.tools
        if other.kind == "read" and other.entity == tool.entity and other.name != tool.name and used[other.name]
    ]
    rows = tool.entity.replace("_", " ")
    if tool.operation == "get":
        covering = [other.name for other in others if shown <= set(other.shown_fields())]
        if covering:
            return f"the tasks reach {rows} rows through {' or '.join(covering)}, which shows every field it does"
        listings = [other for other in graph.tools if other.entity == tool.entity and other.operation == "list"]
        listed = {name for other in listings for name in other.shown_fields()}
        details = ", ".join(name.replace("_", " ") for name in tool.shown_fields() if name not in listed)
        return f"no task asks for a detail of a {rows} only it shows ({details})"
    if tool.operation == "find":
        by = " or ".join(tool.filters) or "its field"
        return f"no user names a {rows} by its {by.replace('_', ' ')}"
    if tool.operation == "list":
        return f"no request is about {rows} rows beyond what other lookups show"
    return "no task asks for a detail only it shows"


def brief_of(task: TaskSpec, personas: dict[str, str]) -> str:
    """Everything the user is given to play the task, as a peer benchmark's user brief holds it: who they are, the
    request, each fact they may give (`email: ...`) and what they say when they react."""
    scenario = task.scenario
    facts = {**scenario.known, **scenario.hidden, **scenario.details, **scenario.which}
    told = [f"{name.replace('_', ' ')}: {value}" for name, value in facts.items() if name != "record_ids"]
    return " ".join([personas.get(scenario.persona, ""), *task.told(), *told])


def asks_user(task: TaskSpec) -> bool:
    """The agent can only do the task by asking: a detail, or which row the user means, is held back."""
    return bool(task.scenario.details or task.scenario.which)


def reactions_of(task: TaskSpec) -> list[str]:
    """The names the report gives the reactions of the task's user script."""
    names = {"refused": "push_back", "offered": "offer_taken"}
    return [
        ("offer_declined" if reaction.when == "offered" and not reaction.takes else None)
        or ("change_of_mind" if reaction.changes else names.get(reaction.when))
        or ("question_after" if any(clause.startswith("tell me ") for clause in reaction.requests) else "follow_up")
        for reaction in task.scenario.script
    ]


def _policy_kind(task: TaskSpec) -> str:
    """What a policy does in the task: `offer`s something instead (which the user may `decline`), `allow`s the
    request on several conditions, or forbids it (`refuse`)."""
    kind = task.intent.partition(":")[0]
    return kind if kind in ("offer", "decline", "allow") else "refuse"


def build_mix(
    accepted: list[TaskSpec],
    graph: ToolGraph,
    blueprint: Blueprint,
    unreached: dict[str, str],
    unexercised: dict[str, str],
) -> TaskMix:
    """`unreached`, `unexercised`: synthesis's reasons for the WRITE actions no candidate task made and the
    policies no candidate task hinged on."""
    clock = blueprint.clock.date()
    personas = {persona.name: persona.description for persona in blueprint.personas}
    writes = [tool.name for tool in graph.tools if tool.kind == "write"]
    by_tool: Counter[str] = Counter()
    for task in accepted:
        by_tool.update({call.name for call in task.oracle})
    missed = {
        action: unreached.get(action) or "the gate or the review dropped every task that made it (see Dropped)"
        for action in writes
        if not by_tool[action]
    }
    hinged = {policy for task in accepted for policy in task.policies}
    untested = {
        policy.id: unexercised.get(policy.id)
        or "the gate or the review dropped every task that hinged on it (see Dropped)"
        for policy in blueprint.policies
        if policy.actions and policy.id not in hinged
    }
    policy = Counter(_policy_kind(task) for task in accepted if task.policies)
    return TaskMix(
        by_action={action: by_tool[action] for action in writes},
        by_tool={tool.name: by_tool[tool.name] for tool in graph.tools},
        unreached=missed,
        unexercised=untested,
        invariants=[policy.id for policy in blueprint.policies if not policy.actions],
        idle_tools={
            tool.name: idle_reason(tool, graph, by_tool)
            for tool in graph.tools
            if tool.kind == "read" and not by_tool[tool.name]
        },
        intents=dict(sorted(Counter(task.intent or task.kind for task in accepted).items())),
        request_shapes=len({request_shape(task, clock) for task in accepted}),
        policy_tasks=dict(sorted(policy.items())),
        conditions_per_policy_task=dict(
            sorted(Counter(max(1, len(task.conditions)) for task in accepted if task.policies).items())
        ),
        asking_tasks=sum(asks_user(task) for task in accepted),
        brief_words=median(len(task.instruction.split()) for task in accepted) if accepted else 0.0,
        scenario_words=median(len(brief_of(task, personas).split()) for task in accepted) if accepted else 0.0,
        reactions=dict(sorted(Counter(name for task in accepted for name in reactions_of(task)).items())),
        reacting_tasks=sum(bool(task.scenario.script) for task in accepted),
    )

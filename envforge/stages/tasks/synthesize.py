"""Task synthesis: walk the tool graph from the user to their rows, run each chain on a fork of the state, and
keep what succeeds, with its golden history.

A task is told the way a user tells it: rows named by what they bought or when, details held back until the
agent asks, several requests about one thing told as one story, and requests a policy forbids or changes next
to ones it allows. Each kind of task drafts in a module of `kinds/`, in the order of `kinds.registry.KINDS`;
`mix` picks among the drafts.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from envforge.ir.blueprint import Blueprint
from envforge.ir.ontology import Ontology
from envforge.ir.tasks import TaskSpec
from envforge.ir.toolspec import ToolGraph
from envforge.pipeline.progress import advance
from envforge.runtime.session import Session
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft
from envforge.stages.tasks.kinds.kind import DraftKind, Share
from envforge.stages.tasks.kinds.registry import KINDS
from envforge.stages.tasks.mix import finished, pick, pools_of, quotas
from envforge.stages.tasks.taskspec import build_task, is_sound


@dataclass
class Synthesis:
    tasks: list[TaskSpec]
    found: dict[str, int]
    unreached: dict[str, str]
    """WRITE actions no candidate task uses -> the most common reason their attempts failed."""
    unexercised: dict[str, str]
    """Policies no candidate task hinges on -> why."""


def synthesize_tasks(
    blueprint: Blueprint,
    ontology: Ontology,
    graph: ToolGraph,
    template: bytes,
    admitted: set[str],
    *,
    count: int,
    seed: int,
    session_type: type[Session] = Session,
) -> Synthesis:
    """Up to `count` distinct tasks in the mix of `mix.QUOTAS`, how many drafts of each share were found, and why
    actions no task uses were missed. `session_type` plays the oracles (`envforge bench` passes one that resets
    the old way, as its baseline)."""
    context = SynthesisContext(blueprint, ontology, graph, template, admitted, seed, session_type)
    quota = quotas(count)
    drafted: dict[DraftKind, list[Draft]] = {}
    for index, kind in enumerate(KINDS, 1):
        drafted[kind] = finished(kind.draft(context, drafted, quota[kind.share] * 2), balanced=kind.balanced)
        advance(index, len(KINDS), "kinds of task drafted")
    pools = pools_of(KINDS, drafted)
    fused = bool(blueprint.composed_of)
    chosen = pick(pools, count, context.crosses if fused else None, context.bridges if fused else None)
    tasks: list[TaskSpec] = []
    unsound: Counter[str] = Counter()
    for draft in chosen:
        if len(tasks) >= count:
            break
        task = build_task(context, draft, f"{blueprint.domain}-{len(tasks) + 1:04d}")
        if is_sound(context, task):
            tasks.append(task)
            advance(len(tasks), count, "tasks built")
        else:
            unsound.update({call.name for call in task.oracle})
    found: dict[str, int] = {share: len(pool) for share, pool in pools.items()}
    return Synthesis(tasks, found, _unreached(context, tasks, pools, unsound), _unexercised(context, tasks, pools))


def _unreached(
    context: SynthesisContext, tasks: list[TaskSpec], pools: dict[Share, list[Draft]], unsound: Counter[str]
) -> dict[str, str]:
    """The actions no task uses -> why: unsound candidates, candidates the mix left out, or failed attempts."""
    used = {call.name for task in tasks for call in task.oracle}
    drafted = Counter(call.name for pool in pools.values() for draft in pool for call in draft.oracle)
    unreached = {}
    for action in context.blueprint.actions:
        if action.name in used:
            continue
        if unsound[action.name]:
            reason = f"{unsound[action.name]} candidate tasks used a value the agent could not have (provenance)"
        elif drafted[action.name]:
            reason = f"{drafted[action.name]} candidate tasks, none drawn into the mix; ask for more tasks"
        else:
            failures = context.failures[action.name].most_common(1)
            reason = failures[0][0] if failures else "no attempt was made"
        unreached[action.name] = reason
    return unreached


def _unexercised(context: SynthesisContext, tasks: list[TaskSpec], pools: dict[Share, list[Draft]]) -> dict[str, str]:
    """The policies on requests no task hinges on -> why: candidates the mix left out, a breach that could not be
    paired with an allowed request, or no request that breaks it. Invariants of the data are no request's."""
    used = {policy for task in tasks for policy in task.policies}
    drafted = Counter(policy for pool in pools.values() for draft in pool for policy in draft.policies)
    met = Counter(policy for draft in [*context.forbidden, *context.offers] for policy in draft.policies)
    attempted = {call.name for pool in pools.values() for draft in pool for call in draft.oracle}
    reasons = {}
    for policy in context.blueprint.policies:
        actions = policy.actions or []
        if policy.id in used or not actions:
            continue
        if drafted[policy.id]:
            reason = f"{drafted[policy.id]} candidate tasks hinge on it, none drawn into the mix; ask for more tasks"
        elif met[policy.id] and not context.paired[policy.id]:
            reason = (
                f"{met[policy.id]} drafted requests break it, but the refusal tasks were filled by other policies "
                "first; ask for more tasks"
            )
        elif met[policy.id]:
            reason = (
                f"{met[policy.id]} drafted requests break it, but none could be asked beside an allowed request of "
                "the same user"
            )
        elif not set(actions) & attempted:
            reason = f"no task draft makes {' or '.join(actions)} (see that action's warning)"
        else:
            reason = (
                f"no drafted request of {' or '.join(actions)} breaks it: the seeded rows and the values drawn all "
                "fall on its allowed side"
            )
        reasons[policy.id] = reason
    return reasons

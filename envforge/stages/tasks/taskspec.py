"""From a draft to a task: its instruction, the run of its oracle as the golden history the verifier checks,
its difficulty, and whether every oracle argument is one the agent could have."""

from __future__ import annotations

from envforge.ir.tasks import Difficulty, IdentitySpec, TaskSpec, UserScenario, VerifierSpec
from envforge.runtime.changes import fold_history
from envforge.runtime.golden import expected_calls, footprint_of
from envforge.runtime.provenance import provenance_violations
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, Part
from envforge.stages.tasks.instruction import render
from envforge.text import stated_in


def build_task(context: SynthesisContext, draft: Draft, task_id: str) -> TaskSpec:
    world = context.world
    instruction, requests, details, which, told, script = render(
        context.phraser, world, draft, context.rng("phrase", task_id), context.cues
    )
    if any(text in instruction for text in which.values()):
        # Another request names the row this one leaves vague: it is no longer the user's to reveal.
        for part in draft.parts:
            part.vague = False
        instruction, requests, details, which, told, script = render(
            context.phraser, world, draft, context.rng("phrase", task_id), context.cues
        )
    ok, _ = context.run(draft.oracle, draft.person)
    if not ok:
        raise RuntimeError(f"the oracle of {task_id} no longer succeeds")
    history = context.session.history()
    stated = [str(v) for v in [*draft.identity.stated.values(), *draft.identity.hidden.values()] if v is not None]
    identity = IdentitySpec(
        entity=world.person.name,
        person=draft.person,
        stated=sorted(set(stated)),
        credentials=draft.identity.credentials,
    )
    distractors = len(context.admitted - {call.name for call in draft.oracle})
    length = len(draft.oracle)
    band = (
        "easy"
        if length <= 2 and draft.writes <= 1 and not details
        else "medium"
        if length <= 4 and draft.writes <= 1 and not draft.policies
        else "hard"
    )
    # What the request itself says (a phone number kept as it is) the user no longer holds back.
    clock = context.blueprint.clock.date()
    said = {name: value for name, value in draft.identity.hidden.items() if stated_in(instruction, value, clock)}
    keys = [key for part in [*draft.parts, *([draft.forbidden] if draft.forbidden else [])] for key in _keys(part)]
    calls = expected_calls(history, context.accumulative)
    if draft.changed is not None:
        # The write of the value the user took back: an agent that confirmed first never made it.
        calls[0] = calls[0].model_copy(update={"optional": True})
    return TaskSpec(
        id=task_id,
        kind=draft.kind,
        instruction=instruction,
        scenario=UserScenario(
            persona=draft.persona.name,
            person=draft.person,
            known={**draft.identity.stated, **said, **({"record_ids": keys} if keys else {})},
            hidden={name: value for name, value in draft.identity.hidden.items() if name not in said},
            details=details,
            said=told,
            which=which,
            requests=requests,
            script=script,
        ),
        oracle=draft.oracle,
        expected_answer=draft.answer,
        difficulty=Difficulty(chain_length=length, writes=draft.writes, distractors=distractors, band=band),
        verifier=VerifierSpec(
            task_id=task_id,
            expected_changes=fold_history(history.writes, history.keys),
            expected_calls=calls,
            footprint=footprint_of(history),
            identity=identity,
            answer=draft.answer_spec,
            refused=sorted({call.name for call in draft.refused}),
            refused_because=[context.policy_text[policy] for policy in draft.policies] if draft.refused else [],
        ),
        policies=draft.policies,
        conditions=list(draft.conditions),
        domains=context.domains(draft),
        intent=draft.family,
        forbidden=draft.refused,
    )


def is_sound(context: SynthesisContext, task: TaskSpec) -> bool:
    """Every oracle argument comes from the user or an earlier result."""
    _, results = context.run(task.oracle, task.scenario.person)
    return not provenance_violations(task, results, context.blueprint.clock.date(), context.rules_text)


def _keys(part: Part) -> list[str]:
    keys = part.target.record_keys() if part.target is not None else []
    return keys + [key for _, other in part.others for key in other.record_keys()]

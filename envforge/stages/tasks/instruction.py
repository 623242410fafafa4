"""A draft told as the user tells it: one message with every request, the details held back until the agent
asks, and the rows named only when asked."""

from __future__ import annotations

import random
from typing import Any

from envforge.stages.tasks import phrasing, wording
from envforge.stages.tasks.drafts import Draft, Part, subject_of
from envforge.stages.tasks.phrasing import Detail, Phraser
from envforge.stages.tasks.world import Description, World

Instruction = tuple[str, list[str], dict[str, Any], dict[str, str], dict[str, Any]]
"""The instruction, the request clauses, the details held back, the rows named only when asked, and the details
said up front in the user's own words (by name, the value they stand for)."""


def render(phraser: Phraser, world: World, draft: Draft, rng: random.Random) -> Instruction:
    if draft.kind == "read":
        assert draft.question is not None
        return (
            phrasing.question(draft.persona, draft.identity.stated, draft.question, rng),
            [draft.question],
            {},
            {},
            {},
        )
    details: dict[str, Any] = {}
    which: dict[str, str] = {}
    said: dict[str, Any] = {}
    clauses = [_clause(phraser, world, part, rng, details, which) for part in draft.parts]
    sentences: list[str] = []
    subject = subject_of(draft.parts) if len(draft.parts) > 1 else None
    if len(draft.parts) == 2 and subject is not None:
        subject_text = phraser.row(subject, rng, owned=True)
        bare = [_clause(phraser, world, part, rng, {}, {}, elide=subject) for part in draft.parts]
        sentences.append(
            wording.capital(
                rng.choice(wording.STORIES).format(
                    subject=subject_text, first=bare[0], second=bare[1], first_bare=bare[0], second_bare=bare[1]
                )
            )
        )
        sentences += _motives(draft.parts, rng)
        sentences += _detail_sentences(phraser, draft.parts, rng, said)
    elif len(draft.parts) == 2:
        sentences.append(
            wording.capital(
                rng.choice(wording.PAIRS).format(
                    first=clauses[0],
                    second=clauses[1],
                    first_bare=clauses[0],
                    second_bare=clauses[1],
                )
            )
        )
        sentences += _motives(draft.parts, rng)
        sentences += _detail_sentences(phraser, draft.parts, rng, said)
    else:
        sentences.append(rng.choice(wording.REQUESTS).format(request=clauses[0]))
        sentences += _motives(draft.parts, rng)
        sentences += _detail_sentences(phraser, draft.parts, rng, said)
    if draft.offered:
        sentences.append(rng.choice(wording.FALLBACK))
    if draft.forbidden is not None:
        forbidden = _clause(phraser, world, draft.forbidden, rng, {}, {})
        lead = rng.choice(wording.LEADS)
        sentences.append(
            wording.capital(rng.choice(wording.REFUSED_ALSO).format(forbidden=forbidden, forbidden_lead=lead))
        )
        sentences += _detail_sentences(phraser, [draft.forbidden], rng, said)
        clauses.append(forbidden)
    if any(part.asked or part.vague for part in draft.parts) and rng.random() < 0.5:
        hint = rng.choice(wording.ASK_HINTS)
        if hint:
            sentences.append(hint)
    opener = phrasing.opener(draft.persona, draft.identity.stated, rng)
    return " ".join(part for part in (opener, *sentences) if part), clauses, details, which, said


def _clause(
    phraser: Phraser,
    world: World,
    part: Part,
    rng: random.Random,
    details: dict[str, Any],
    which: dict[str, str],
    elide: Description | None = None,
) -> str:
    """The request as an imperative clause; fills `details` and `which` with what the user holds back."""
    target_text: str | None = None
    if part.target is not None:
        if elide is not None and part.target == elide:
            target_text = f"that {phraser.words(elide.entity)}"
        elif part.vague:
            target_text = f"one of my {phraser.words(world.entity(part.target.entity).plural)}"
            which[part.target.entity] = phraser.row(part.target, rng, owned=True)
        else:
            target_text = phraser.row(_elided(part.target, elide), rng, owned=part.owned)
    text = phraser.action_clause(
        part.action, target_text, part.target.entity if part.target is not None else None, part.target_param
    )
    for name, other in part.others:
        named = phraser.row(other, rng, owned=world.is_owned(other.entity))
        link = phraser.link(part.action, name, other.entity)
        text += f"{link} {named}" if link.startswith(",") else f" {link} {named}"
    if part.asked:
        for detail in part.details:
            details[_detail_key(detail, phraser.person_fields)] = _held(detail)
    return text


def _motives(parts: list[Part], rng: random.Random) -> list[str]:
    """Why the user asks, for each request whose action the blueprint gives motives."""
    return [rng.choice(part.action.motives) for part in parts if part.action.motives]


def _detail_sentences(phraser: Phraser, parts: list[Part], rng: random.Random, said: dict[str, Any]) -> list[str]:
    """The details told up front; those said in the user's own words go into `said`."""
    told = [detail for part in parts if not part.asked for detail in part.details]
    said |= {detail.name: detail.value for detail in told if detail.says is not None}
    return [phraser.detail_sentence(detail, rng) for detail in told]


def _elided(description: Description, subject: Description | None) -> Description:
    """The description without its ancestor `subject`, which the sentence already names."""
    if subject is None or description.parent is None:
        return description
    if description.parent == subject:
        return Description(
            description.entity, description.fields, description.uses_key, None, description.one_to_one, subject.entity
        )
    return Description(
        description.entity,
        description.fields,
        description.uses_key,
        _elided(description.parent, subject),
        description.one_to_one,
    )


def _detail_key(detail: Detail, person_fields: set[str]) -> str:
    """The detail's name as the user holds it; `new_email` where the user's own email is another thing."""
    return f"new_{detail.name}" if detail.new and detail.name in person_fields else detail.name


def _held(detail: Detail) -> Any:
    """A detail as the user holds it: an enum value in words (`found cheaper`), anything else as stored."""
    return wording.words(detail.value) if detail.kind == "enum" and isinstance(detail.value, str) else detail.value

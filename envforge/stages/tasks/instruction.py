"""A draft told as the user tells it: a first message with its requests, each followed by why and the details
given up front; the details held back until the agent asks; the rows named only when asked; and the user's script:
a follow-up request once the first is done, a push back on a refusal, an offer taken or turned down once the agent
makes it."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from envforge.ir.tasks import Reaction
from envforge.stages.tasks import phrasing, wording
from envforge.stages.tasks.drafts import Draft, Part, subject_of
from envforge.stages.tasks.phrasing import Detail, Phraser
from envforge.stages.tasks.world import Description, World

Cues = Callable[[str], list[str]]

Instruction = tuple[str, list[str], dict[str, Any], dict[str, str], dict[str, Any], list[Reaction]]
"""The instruction, the request clauses, the details held back, the rows named only when asked, the details
said in the user's own words (by name, the value they stand for), and how the user reacts later."""


def render(phraser: Phraser, world: World, draft: Draft, rng: random.Random, cues: Cues) -> Instruction:
    """`cues` gives the words that name an action (its verbs and nouns): what a refusal of it says."""
    if draft.kind == "read":
        assert draft.question is not None
        return (
            phrasing.question(draft.persona, draft.identity.stated, draft.question, rng),
            [draft.question],
            {},
            {},
            {},
            [],
        )
    which: dict[str, str] = {}
    said: dict[str, Any] = {}
    script: list[Reaction] = []
    held: list[dict[str, Any]] = [{} for _ in draft.parts]
    clauses = [_clause(phraser, world, part, rng, held[index], which) for index, part in enumerate(draft.parts)]
    details = {name: value for part in held for name, value in part.items()}
    if len(draft.parts) == 2 and draft.follow_from is None:
        sentences = _both(phraser, world, draft, rng, clauses, said)
    else:
        sentences = [
            rng.choice(wording.REQUESTS).format(request=clauses[0]),
            *_told(phraser, draft.parts[0], rng, said),
        ]
    if draft.follow_from is not None:
        script.append(_follow_up(phraser, draft, rng, clauses, said, list(held[-1])))
    if draft.offered:
        script.append(_acceptance(phraser, draft, rng))
    if draft.forbidden is not None:
        forbidden = _clause(phraser, world, draft.forbidden, rng, {}, {})
        lead = rng.choice(wording.LEADS)
        sentences.append(
            wording.capital(rng.choice(wording.REFUSED_ALSO).format(forbidden=forbidden, forbidden_lead=lead))
        )
        sentences += _told(phraser, draft.forbidden, rng, said)
        clauses.append(forbidden)
        if draft.declined is not None:
            script.append(_refusal_of_offer(phraser, draft.forbidden, draft.declined, rng, forbidden))
        else:
            script.append(
                Reaction(
                    when="refused",
                    say=rng.choice(wording.PUSHBACKS),
                    requests=[forbidden],
                    cue=cues(draft.forbidden.action.name),
                )
            )
    first = draft.parts[:1] if draft.follow_from is not None else draft.parts
    if any(part.asked or part.vague for part in first) and rng.random() < 0.5:
        hint = rng.choice(wording.ASK_HINTS)
        if hint:
            sentences.append(hint)
    opener = phrasing.opener(draft.persona, draft.identity.stated, rng)
    return " ".join(part for part in (opener, *sentences) if part), clauses, details, which, said, script


def _follow_up(
    phraser: Phraser, draft: Draft, rng: random.Random, clauses: list[str], said: dict[str, Any], held: list[str]
) -> Reaction:
    """What the user asks for once the first request is done: a question about their rows, or a second request
    with why and the details it gives (`held`: those it holds back until the agent asks); its clause joins
    `clauses`."""
    assert draft.follow_from is not None
    if draft.changed is not None:
        return _change_of_mind(phraser, draft, rng)
    if draft.question is not None:
        asking = rng.choice(wording.FOLLOW_UP_QUESTIONS)
        say = asking.format(direct=wording.capital(draft.question), question=draft.question)
        clauses.append(f"tell me {draft.question}")
        return Reaction(when="done", say=say, requests=clauses[-1:], calls_from=draft.follow_from)
    later = [rng.choice(wording.FOLLOW_UPS).format(request=clauses[1]), *_told(phraser, draft.parts[1], rng, said)]
    return Reaction(when="done", say=" ".join(later), requests=[clauses[1]], calls_from=draft.follow_from, details=held)


def _change_of_mind(phraser: Phraser, draft: Draft, rng: random.Random) -> Reaction:
    """The user gives the changed detail another value once the agent proposes the first (naming it) or reports
    it done; the first value is what such a proposal names."""
    first, second = (next(d for d in part.details if d.name == draft.changed) for part in draft.parts)
    # A number is a mind changed; a new address or email given again is a slip corrected.
    forms = wording.CHANGES_OF_MIND if isinstance(first.value, int | float) else wording.CORRECTIONS
    say = rng.choice(forms).format(detail=phraser.detail_sentence(second, rng))
    return Reaction(when="done", say=say, calls_from=draft.follow_from, cue=[str(first.value)], changes=True)


def _both(
    phraser: Phraser, world: World, draft: Draft, rng: random.Random, clauses: list[str], said: dict[str, Any]
) -> list[str]:
    """Two requests in one message, each followed by why and its details: about one row, told as a story."""
    subject = subject_of(draft.parts)
    if subject is None:
        first = rng.choice(wording.REQUESTS).format(request=clauses[0])
        second = wording.capital(rng.choice(wording.SECONDS).format(second=clauses[1]))
    else:
        subject_text = phraser.row(subject, rng, owned=True)
        bare = [_clause(phraser, world, part, rng, {}, {}, elide=subject) for part in draft.parts]
        first = wording.capital(rng.choice(wording.STORIES).format(subject=subject_text, first=bare[0]))
        second = wording.capital(rng.choice(wording.STORY_SECONDS).format(second=bare[1]))
    return [first, *_told(phraser, draft.parts[0], rng, said), second, *_told(phraser, draft.parts[1], rng, said)]


def _told(phraser: Phraser, part: Part, rng: random.Random, said: dict[str, Any]) -> list[str]:
    """What the user says right after asking for `part`: why (its action's motive, if the blueprint gives any) and
    the details they give up front, so each reads next to the request it is about."""
    motive = [rng.choice(part.action.motives)] if part.action.motives else []
    return motive + _detail_sentences(phraser, [part], rng, said)


def _acceptance(phraser: Phraser, draft: Draft, rng: random.Random) -> Reaction:
    """The user takes what the policy offers once the agent proposes it: the values in which the offered write
    differs from the one asked for are what the proposal must name. The request itself never says the rule."""
    offered, asked = draft.oracle[-1], draft.refused[0]
    changed = {name: value for name, value in offered.arguments.items() if asked.arguments.get(name) != value}
    say = rng.choice(wording.ACCEPTS).format(offer=_spoken(phraser, draft.parts[0], changed, rng))
    return Reaction(when="offered", say=wording.capital(say), cue=[str(v) for v in changed.values()], offer=changed)


def _refusal_of_offer(phraser: Phraser, part: Part, offer: dict[str, Any], rng: random.Random, clause: str) -> Reaction:
    """The user turns down what the policy offers in place of `part` once the agent proposes it, and gives that
    request up: it was the amount (or the kind) asked for or nothing."""
    say = rng.choice(wording.DECLINES).format(offer=_spoken(phraser, part, offer, rng))
    return Reaction(
        when="offered",
        say=wording.capital(say),
        requests=[clause],
        cue=[str(value) for value in offer.values()],
        offer=offer,
        takes=False,
    )


def _spoken(phraser: Phraser, part: Part, values: dict[str, Any], rng: random.Random) -> str:
    kinds = {param.name: param.type for param in part.action.params}
    return " and ".join(phraser.value(value, kinds.get(name, "string"), rng) for name, value in values.items())


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

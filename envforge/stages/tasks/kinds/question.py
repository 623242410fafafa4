"""Questions: a user asks about their own rows, a field of one row (`when did my order ship?`) or how many of
them have a status (`how many of my bookings are cancelled?`); the right run answers it."""

from __future__ import annotations

import itertools
import random
from typing import Any

from envforge.ir.answers import AnswerSpec, AnswerType
from envforge.ir.naming import get_tool_name, list_tool_name
from envforge.ir.tasks import ToolCall
from envforge.stages.tasks import wording
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, Identity
from envforge.stages.tasks.identity import identify
from envforge.stages.tasks.kinds.kind import Drafted, DraftKind
from envforge.text import show, stated_in

ANSWER_TYPES: dict[str, AnswerType] = {
    "enum": "enum",
    "money": "money",
    "date": "date",
    "datetime": "date",
    "integer": "number",
    "number": "number",
    "string": "text",
}
"""Field type -> how a question about it is answered."""
COUNT_SHARE = 0.25
"""Share of questions that count rows rather than ask a field of one."""
MAX_RECORD_VALUES = 200
DETAIL_SHARE = 0.5
"""Share of questions about a row with details (what only its get tool shows) that ask one of those."""
OTHER_ROWS_SEEN = 5
"""Other people's rows whose value of the asked field a question also lists as competing (what a list shows)."""


class Questions(DraftKind):
    share = "read"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        """Up to `wanted` questions, going through the users three times over."""
        drafts: list[Draft] = []
        for person in context.persons * 3:
            draft = question_of(context, person, context.rng("read", person, len(drafts)))
            if draft is not None:
                drafts.append(draft)
            if len(drafts) >= wanted:
                break
        return drafts


def question_of(context: SynthesisContext, person: str, rng: random.Random) -> Draft | None:
    """A question of `person` about one of their rows, of an entity drawn by `rng`: a field of one row, or (a
    `COUNT_SHARE` of the time) how many rows have a status; None where the draw finds nothing to ask."""
    world = context.world
    entities = [name for name in world.path if name != world.person.name and name not in world.linked]
    if not entities:
        return None
    entity = rng.choice(entities)
    keys = sorted(world.owned.get((person, entity), []))
    if not keys:
        return None
    if rng.random() < COUNT_SHARE:
        return _count_question(context, person, entity, rng)
    return _field_question(context, person, entity, rng.choice(keys), rng)


def _field_question(context: SynthesisContext, person: str, entity: str, key: str, rng: random.Random) -> Draft | None:
    world = context.world
    persona = context.persona_of(person)
    identity = identify(world, person, persona, rng)
    if identity is None:
        return None
    description = world.describe_owned(entity, key)
    if description.record_keys():
        return None
    used = {name.split(":")[-1] for name, _ in description.fields}
    spec = world.entity(entity)
    row = world.rows[entity][key]
    # A free-text field is asked about only where the blueprint says what people call it.
    fields = [
        f
        for f in spec.fields
        if f.type in ANSWER_TYPES
        and f.name not in used
        and row[f.name] not in (None, "")
        and (f.type != "string" or f.noun is not None)
    ]
    if not fields:
        return None
    listed = world.listed(entity)
    details = [f for f in fields if f.name not in listed]
    asked = rng.choice(details if details and rng.random() < DETAIL_SHARE else fields)
    lookups = world.lookup_chain(entity, key, identity.call, description)
    if asked.name not in listed:
        # A detail the list leaves out: the agent opens the row itself.
        lookups.append(ToolCall(name=get_tool_name(entity), arguments={spec.key: key}))
    ok, _ = context.run(lookups, person)
    if not ok:
        return None
    text = rng.choice(wording.question_forms(asked, context.phraser.row(description, rng, owned=True)))
    value = row[asked.name]
    mine = world.owned[(person, entity)]
    rows = world.rows[entity]
    seen = (rows[other][asked.name] for other in world.keys_in_order(entity) if other not in mine)
    others = [rows[other][asked.name] for other in mine] + list(itertools.islice(seen, OTHER_ROWS_SEEN))
    answer = AnswerSpec(
        type=ANSWER_TYPES[asked.type],
        value=_canonical(value),
        choices=list(asked.values or []),
        competitors=sorted({_canonical(other) for other in others if other is not None and other != value}),
        stated=_stated(identity, description.stated()),
        records=_records(context, person, {key}, list(asked.values or [])),
        field=f"{entity}.{asked.name}",
        key=key,
    )
    if any(stated_in(text, other, context.blueprint.clock.date()) for other in answer.competitors):
        # The question says another record's value ("90" of "the Albuterol 90 mcg inhaler"), which an answer may
        # repeat: "either 30 or 90" could not be told from the answer.
        return None
    return Draft(
        "read",
        person,
        persona,
        identity,
        lookups,
        0,
        question=text,
        answer=show(value),
        answer_spec=answer,
        family=f"ask:{entity}.{asked.name}",
    )


def _count_question(context: SynthesisContext, person: str, entity: str, rng: random.Random) -> Draft | None:
    world = context.world
    relation = world.path[entity][-1]
    if relation.parent != world.person.name:
        return None
    spec = world.entity(entity)
    # Counted by a field that names rows ("my processing orders", "my home addresses"), not "with reason damaged".
    enums = [f for f in spec.fields if f.type == "enum" and wording.field_phrase(f) is not None]
    if not enums:
        return None
    asked = rng.choice(enums)
    value = rng.choice(list(asked.values or []))
    persona = context.persona_of(person)
    identity = identify(world, person, persona, rng)
    if identity is None:
        return None
    listing = ToolCall(
        name=list_tool_name(spec.plural), arguments={relation.field: person, asked.name: value, "limit": 100}
    )
    ok, results = context.run([identity.call, listing], person)
    if not ok:
        return None
    total = results[-1]["total"]
    plural = context.phraser.words(spec.plural)
    shown = wording.words(value)
    if asked.name in ("status", "state"):
        forms = [f"how many of my {plural} are {shown}", f"how many {shown} {plural} do I have"]
    else:
        rows = str(wording.field_phrase(asked)).format(noun=plural, value=shown)
        forms = [f"how many {rows} do I have", f"how many {rows} are there on my account"]
    answer = AnswerSpec(
        type="count",
        value=str(total),
        stated=_stated(identity, [value]),
        counted=f"{entity}.{relation.field}",
        records=_records(context, person, set(), list(asked.values or [])),
    )
    return Draft(
        "read",
        person,
        persona,
        identity,
        [identity.call, listing],
        0,
        question=rng.choice(forms),
        answer=str(total),
        answer_spec=answer,
        family=f"count:{entity}.{asked.name}",
    )


def _stated(identity: Identity, described: list[Any]) -> list[str]:
    """What the question and the user say, which an answer may repeat."""
    values = [*identity.stated.values(), *identity.hidden.values(), *described]
    return sorted({_canonical(value) for value in values if value is not None} | {show(v) for v in described})


def _records(context: SynthesisContext, person: str, asked: set[str], asked_choices: list[str]) -> list[str]:
    """Keys and text of the person's rows, and the environment's status words: an answer that repeats many of
    them dumps records."""
    world = context.world
    values: set[str] = set()
    for entity in world.path:
        spec = world.entity(entity)
        texts = [f.name for f in spec.fields if f.type in ("string", "text")]
        keys = [person] if entity == world.person.name else world.owned.get((person, entity), [])
        for key in keys:
            if key not in asked:
                values.add(key)
            row = world.rows[entity][key]
            values.update(str(row[name]) for name in texts if row[name] is not None and len(str(row[name])) >= 3)
    return sorted(values)[:MAX_RECORD_VALUES] + _vocabulary(context, asked_choices)


def _vocabulary(context: SynthesisContext, asked: list[str]) -> list[str]:
    """The environment's status words outside the asked field's: naming many of them is a shotgun, not an answer."""
    words = {
        wording.words(value) for entity in context.blueprint.entities for f in entity.fields for value in f.values or []
    }
    return sorted(words - {wording.words(value) for value in asked})


def _canonical(value: Any) -> str:
    """A stored value as an answer spec writes it: money with cents, booleans lower-case, dates ISO."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)

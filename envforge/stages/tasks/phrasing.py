"""What the user says: rows named the way people name them, requests and questions in the persona's voice."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from envforge.ir.blueprint import ActionSpec, FieldSpec, IncrementEffect, InsertEffect, PersonaSpec
from envforge.ir.naming import split_action_name
from envforge.ir.ontology import Ontology
from envforge.stages.tasks import wording
from envforge.stages.tasks.world import Description

_LATEST = ("most recent", "latest", "newest")
_EARLIEST = ("oldest", "earliest", "first")
_LINKS = ("from", "on", "in")


@dataclass(frozen=True)
class Detail:
    """One argument of a request that is not a row: its parameter, value and type."""

    name: str
    value: Any
    kind: str
    new: bool
    """The value replaces a stored one (`the new email`), rather than describing something added."""


class Phraser:
    """Turns descriptions and requests into sentences; every choice comes from the caller's seeded RNG."""

    def __init__(self, ontology: Ontology, clock: date, plain: dict[str, str] | None = None) -> None:
        self.ontology = ontology
        self.clock = clock
        self.plain = plain or {}
        """Fused names -> how people say them (`bank_card` -> `card`); empty for one domain."""
        self.fields: dict[tuple[str, str], FieldSpec] = {
            (entity.name, field.name): field for entity in ontology.entities for field in entity.fields
        }
        self.person_fields = {field.name for field in ontology.entity(ontology.person).fields}

    def words(self, name: str) -> str:
        """An entity, plural or action name in words, as people say it."""
        return wording.words(self.plain.get(name, name))

    def noun(self, entity: str, parent: str | None = None) -> str:
        """`order item`, or `item` under its order (the sentence already says which order)."""
        noun = self.words(entity)
        if parent is not None and noun.startswith(self.words(parent) + " "):
            return noun.removeprefix(self.words(parent) + " ")
        return noun

    def value(self, value: Any, kind: str, rng: random.Random) -> str:
        return wording.spoken(value, kind, self.clock, rng)

    def row(self, description: Description, rng: random.Random, *, owned: bool) -> str:
        """`the Desk Lamp from my order placed on March 3`, `my most recent booking`, `order ORD-123456`."""
        noun = self.noun(description.entity, description.parent.entity if description.parent else description.under)
        if description.uses_key:
            text = f"{noun} {description.fields[0][1]}"
            return (
                text
                if description.parent is None
                else f"{text} {rng.choice(_LINKS)} {self.row(description.parent, rng, owned=owned)}"
            )
        labels = [(name, value) for name, value in description.fields if "->" in name]
        phrase = self.labelled(description.entity, *labels[0], noun) if labels else noun
        nested = description.parent is not None or description.under is not None
        determiner = "the" if labels or not owned or nested else "my"
        for name, value in description.fields:
            if "->" in name:
                continue
            if name.startswith(("latest:", "earliest:")):
                phrase = f"{rng.choice(_LATEST if name.startswith('latest:') else _EARLIEST)} {phrase}"
                determiner = "my" if owned and description.parent is None else "the"
                continue
            if name.startswith("period:"):
                spec = self.fields[(description.entity, name.removeprefix("period:"))]
                template = (wording.field_phrase(spec) or "{noun} from {value}").replace(" on {value}", " in {value}")
                phrase = template.format(noun=phrase, value=wording.period_words(str(value), self.clock))
                continue
            spec = self.fields[(description.entity, name)]
            template = wording.field_phrase(spec) or "{noun} with {value}"
            phrase = template.format(noun=phrase, value=self.value(value, spec.type, rng))
        text = f"{determiner} {phrase}"
        if description.parent is None:
            return text
        parent = self.row(description.parent, rng, owned=owned)
        link = "for" if description.one_to_one and not description.fields else rng.choice(_LINKS[:2])
        return f"{text} {link} {parent}"

    def labelled(self, entity: str, name: str, value: Any, noun: str) -> str:
        """A row named by its parent's label: `Desk Lamp` when the label is a name, `fare on flight UA 120`
        when it is a code."""
        field, label = name.split("->", 1)
        if label in ("name", "title"):
            return str(value)
        parent = next(r.parent for r in self.ontology.relations if r.child == entity and r.field == field)
        return f"{noun} on {self.words(parent)} {value}"

    def action_clause(
        self, action: ActionSpec, target: str | None, target_entity: str | None, target_param: str = ""
    ) -> str:
        """`cancel my order placed on March 3`, `add an address to my account`, `change the quantity of the Desk
        Lamp from my order ...`, `request a return for the Desk Lamp ...`, `update my email`."""
        verb, rest = split_action_name(self.plain.get(action.name, action.name))
        noun = wording.words(rest)
        inserts = any(isinstance(effect, InsertEffect) and effect.insert == action.entity for effect in action.effects)
        if target is None:
            if any(
                isinstance(effect, IncrementEffect) and effect.increment.endswith(f".{rest}")
                for effect in action.effects
            ):
                return f"{verb} me {noun}"
            if rest in self.person_fields:
                return f"{verb} my {noun}"
            return f"{verb} {wording.article(noun)} to my account" if inserts else f"{verb} {noun} for my account"
        if target_entity is not None and (
            noun == self.noun(target_entity) or noun.endswith(" " + self.noun(target_entity))
        ):
            # `remove_checked_bag` on a bag: remove the bag, not "the checked of" it.
            return f"{verb} {target}"
        # `change_item_quantity` on an order item: the quantity *of* the item.
        entity_words = set(self.noun(target_entity or "").split())
        attribute = " ".join(word for word in noun.split() if word not in entity_words)
        if not attribute and target_entity == action.entity:
            return f"{verb} {target}"
        if not inserts and target_entity == action.entity:
            return f"{verb} the {attribute} of {target}"
        lead = "from" if target_param.startswith("from_") else "for"
        return f"{verb} {wording.article(noun) if inserts else 'the ' + noun} {lead} {target}"

    def detail_sentence(self, detail: Detail, rng: random.Random) -> str:
        noun = wording.words(detail.name)
        value = self.value(detail.value, detail.kind, rng)
        forms = wording.NEW_DETAIL_SENTENCES if detail.new else wording.DETAIL_SENTENCES
        return wording.capital(rng.choice(forms).format(noun=noun, value=value))


def opener(persona: PersonaSpec, identity: dict[str, Any], rng: random.Random) -> str:
    """Greeting plus who the user is (only what the persona states)."""
    greeting = rng.choice(wording.OPENERS[wording.style(persona.traits)])
    names = [str(identity[name]) for name in ("first_name", "last_name") if name in identity]
    rest = [
        f"my {wording.words(name)} is {value}"
        for name, value in identity.items()
        if name not in ("first_name", "last_name")
    ]
    if names:
        who = rng.choice(["This is {name}", "My name is {name}", "I'm {name}"]).format(name=" ".join(names))
        sentence = who + (", and " + " and ".join(rest) if rest else "") + "."
    elif rest:
        sentence = wording.capital(" and ".join(rest)) + "."
    else:
        sentence = ""
    return " ".join(part for part in (greeting, sentence) if part)


def question(persona: PersonaSpec, identity: dict[str, Any], asked: str, rng: random.Random) -> str:
    """`asked` is a question in lower case without its mark (`when was my order placed`)."""
    text = rng.choice(wording.QUESTIONS).format(direct=wording.capital(asked), question=asked)
    return f"{opener(persona, identity, rng)} {text}".strip()


def link_of(param: str) -> str:
    """How a further row joins the request: `to_account_id` -> `to`, `new_slot_id` -> `to`, else `, using`."""
    if param.startswith(("to_", "new_")):
        return "to"
    if param.startswith("from_"):
        return "from"
    return ", using"

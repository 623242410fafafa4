"""What the user says: rows named the way people name them, requests and questions in the persona's voice."""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import date
from typing import Any

from envforge.ir.blueprint import ActionSpec, FieldSpec, IncrementEffect, InsertEffect, ParamSpec, PersonaSpec
from envforge.ir.naming import split_action_name
from envforge.ir.ontology import Ontology
from envforge.runtime.clarify import field_label, split_unit
from envforge.stages.tasks import wording
from envforge.stages.tasks.world import Description

_LATEST = ("most recent", "latest", "newest")
_EARLIEST = ("oldest", "earliest", "first")
_LINKS = ("from", "on", "in")


@dataclass(frozen=True)
class Detail:
    """One argument of a request that is not a row: its parameter and value."""

    param: ParamSpec
    value: Any
    new: bool
    """The value replaces a stored one (`the new email`), rather than describing something added."""

    @property
    def name(self) -> str:
        return self.param.name

    @property
    def kind(self) -> str:
        return self.param.type

    @property
    def says(self) -> str | None:
        """The user's own sentence for this enum value (`It arrived damaged.`), where the blueprint gives one."""
        return (self.param.says or {}).get(self.value) if isinstance(self.value, str) else None


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
        for name, value in labels[1:]:
            # The copy of a title at a branch: further labels say where the row is.
            phrase = f"{phrase} at the {value} {self.words(self.label_parent(description.entity, name))}"
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
            if "{noun}" not in template:
                determiner = ""  # a phrase that names the row alone: `Dr. {value}`
            phrase = template.format(noun=phrase, value=self.value(value, spec.type, rng))
        if phrase.startswith("The "):
            determiner = ""  # a title that brings its own: The Patient Garden
        text = f"{determiner} {phrase}".strip()
        if description.parent is None:
            return text
        parent = self.row(description.parent, rng, owned=owned)
        link = "for" if description.one_to_one and not description.fields else rng.choice(_LINKS[:2])
        return f"{text} {link} {parent}"

    def labelled(self, entity: str, name: str, value: Any, noun: str) -> str:
        """A row named by its parent's label: `Desk Lamp` when the label is a name, the label's phrase where the
        blueprint gives one, `fare on flight UA 120` when it is a code."""
        label = name.split("->", 1)[1]
        if label in ("name", "title"):
            return str(value)
        parent = self.label_parent(entity, name)
        template = self.fields[(parent, label)].phrase
        if template is not None:
            # The label's own phrase: the appointment at 15:30, the prescription from Dr. Lucas.
            named = template.format(noun=noun, value=value)
            return named if "{noun}" in template else f"{noun} from {named}"
        return f"{noun} on {self.words(parent)} {value}"

    def label_parent(self, entity: str, name: str) -> str:
        """The entity whose label `name` (`book_id->title`) gives."""
        field = name.split("->", 1)[0]
        return next(r.parent for r in self.ontology.relations if r.child == entity and r.field == field)

    def action_clause(
        self, action: ActionSpec, target: str | None, target_entity: str | None, target_param: str = ""
    ) -> str:
        """`cancel my order placed on March 3`, `add an address to my account`, `change the quantity of the Desk
        Lamp from my order ...`, `request a return for the Desk Lamp ...`, `update my email`."""
        verb, rest = split_action_name(self.plain.get(action.name, action.name))
        verb = wording.VERBS.get(verb, verb)
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
            if noun != self.noun(target_entity) and target_entity != action.entity:
                # `set_primary_doctor` on a doctor: the doctor becomes the user's primary one.
                return f"{verb} {target} as my {noun}"
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

    def link(self, action: ActionSpec, param: str, entity: str) -> str:
        """How a further row joins the request: `to` where something goes (`to_account_id`, `new_slot_id`, the
        address that `update_shipping_address` changes to), `from` where it comes from, else `, using`."""
        if param.startswith(("to_", "new_")):
            return "to"
        if param.startswith("from_"):
            return "from"
        changed = wording.words(split_action_name(self.plain.get(action.name, action.name))[1])
        return "to" if changed.rsplit(" ", 1)[-1] == self.noun(entity).rsplit(" ", 1)[-1] else ", using"

    def detail_sentence(self, detail: Detail, rng: random.Random) -> str:
        """The detail as the user gives it: the blueprint's sentence for it, else one made from its name, with a
        unit said after the value (`The weight is 20 kg.`) and the user's own things as theirs (`My new email is
        ...`)."""
        if detail.says is not None:
            return detail.says
        value = self.value(detail.value, detail.kind, rng)
        if detail.param.sentence is not None:
            return detail.param.sentence.format(value=value)
        stem, unit = split_unit(detail.name)
        noun = field_label(stem)
        value = f"{value} {unit}" if unit else value
        if detail.new and detail.name in self.person_fields:
            forms = wording.OWN_DETAIL_SENTENCES
        else:
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

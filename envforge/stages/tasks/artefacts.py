"""Where a request reads like a filled-in template rather than a customer: field names used as nouns ("the
occurred on"), values put into a field's frame as stored ("Use found cheaper as the reason", "The reason is
damaged"), internal keys of rows people know by a name ("item ITM-219263"), identifiers, labels and brackets,
and phone extensions nobody says.

The synthesizer drafts no request that names a row by a key where the row has a display name
(`displayed_entities`); every other form is the wording's to avoid, and the task quality tests scan each task of
each shipped domain with `ArtefactScan`.
"""

from __future__ import annotations

import re

from envforge.ir.blueprint import Blueprint, EntitySpec
from envforge.ir.ownership import owner_paths
from envforge.runtime.clarify import UNITS

_PREPOSITIONS = ("on", "at", "by", "for")
_DETERMINERS = r"(?:the|my|your|its|their|a|an)"
_SNAKE = re.compile(r"(?<![@\w.])[a-z]+_[a-z_]+\b")
_BRACKETED = re.compile(r"\([^)]*[A-Za-z:][^)]*\)")
_DOUBLED = re.compile(r"\b(\w+) \1\b", re.IGNORECASE)
_EXTENSION = re.compile(r"\d[\d().\s-]{5,}\d\s*(?:x|ext\.?|extension)\s*\d+", re.IGNORECASE)


def displayed_entities(blueprint: Blueprint) -> set[str]:
    """Entities whose rows people know by something they see: a searchable text of their own (a product's name,
    a branch's name) or of a catalogue row they point at (an order line's product). The user never names those
    rows by their keys."""
    labelled = {entity.name for entity in blueprint.entities if _has_label(entity)}
    catalogue = labelled - set(owner_paths(blueprint))
    return labelled | {relation.child for relation in blueprint.relations if relation.parent in catalogue}


def _has_label(entity: EntitySpec) -> bool:
    return any(field.searchable and field.type in ("string", "text") for field in entity.fields)


def _key_pattern(entity: EntitySpec) -> str:
    # As the seeder makes keys: the id field's prefix, else the entity name's first three letters, and six digits.
    prefix = next(field.prefix for field in entity.fields if field.type == "id") or entity.name[:3].upper()
    return rf"{re.escape(prefix)}-\d{{6}}"


def _alternation(phrases: set[str]) -> str:
    return "|".join(re.escape(phrase) for phrase in sorted(phrases, key=len, reverse=True))


class ArtefactScan:
    """The scan of one blueprint's requests, its vocabulary compiled once."""

    def __init__(self, blueprint: Blueprint) -> None:
        fields = [field for entity in blueprint.entities for field in entity.fields if field.type != "id"]
        params = [param for action in blueprint.actions for param in action.params if param.ref is None]
        names = {item.name.replace("_", " ") for item in fields} | {item.name.replace("_", " ") for item in params}
        self.labels = sorted(names)
        stored = {value for item in fields for value in item.values or []}
        stored |= {value for item in params for value in item.values or []}
        raw = _alternation(stored | {value.replace("_", " ") for value in stored})
        nouns = _alternation(names)
        self.framed = re.compile(
            rf"\b(?:the (?:new )?(?P<noun>{nouns}) (?:is|should be|would be|will be)(?: now)?|"
            rf"(?:make|set) the (?P<set>{nouns})|with (?P<with>{nouns})) (?P<value>{raw})\b(?! \w)",
            re.IGNORECASE,
        )
        self.used_as = re.compile(rf"\buse\b[^.?!]*?\bas {_DETERMINERS} (?:new )?(?:{nouns})\b", re.IGNORECASE)
        self.value_as = re.compile(rf"\b(?:{raw}) as {_DETERMINERS} (?:{nouns})\b", re.IGNORECASE)
        # A name that ends in a unit or a preposition is no noun a person uses: "the weight kg", "the placed on".
        odd = {name for name in names if name.rsplit(" ", 1)[-1] in (*UNITS, *_PREPOSITIONS) and " " in name}
        self.odd_noun = (
            re.compile(rf"\b{_DETERMINERS} (?:new )?(?:{_alternation(odd)})\b", re.IGNORECASE) if odd else None
        )
        displayed = displayed_entities(blueprint)
        patterns = [_key_pattern(entity) for entity in blueprint.entities if entity.name in displayed]
        self.keys = re.compile(rf"\b(?:{'|'.join(patterns)})\b") if patterns else None

    def scan(self, text: str) -> list[str]:
        """One line per artefact in `text`, naming its kind and the words found."""
        found = [f"bracketed: {match}" for match in _BRACKETED.findall(text)]
        found += [f"identifier: {match}" for match in _SNAKE.findall(text)]
        found += [f"field label: {name}:" for name in self.labels if re.search(rf"\b{re.escape(name)}: ", text, re.I)]
        found += [f"doubled word: {match}" for match in _DOUBLED.findall(text)]
        used = list(self.used_as.finditer(text))
        found += [f"use-as frame: {match.group()}" for match in used]
        found += [
            f"value-as frame: {match.group()}"
            for match in self.value_as.finditer(text)
            if not any(frame.start() <= match.start() < frame.end() for frame in used)
        ]
        found += [f"raw value in a field frame: {match.group()}" for match in self.framed.finditer(text)]
        if self.odd_noun is not None:
            found += [f"field name as a noun: {match.group()}" for match in self.odd_noun.finditer(text)]
        if self.keys is not None:
            found += [f"internal key: {match.group()}" for match in self.keys.finditer(text)]
        found += [f"phone extension: {match.group()}" for match in _EXTENSION.finditer(text)]
        return found

"""The seeded state seen from the user's side: who owns which rows, how an agent reaches them with
lookup tools, and how a user would describe them without internal keys."""

from __future__ import annotations

import itertools
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from envforge.ir.blueprint import FieldSpec
from envforge.ir.naming import list_tool_name
from envforge.ir.ontology import Ontology, OntologyEntity, OntologyRelation
from envforge.ir.ownership import owner_paths
from envforge.ir.tasks import ToolCall
from envforge.ir.toolspec import ToolGraph
from envforge.runtime.session import Session
from envforge.text import humanize, show

Row = dict[str, Any]
DESCRIPTOR_TYPES = ("enum", "date", "datetime", "string", "money", "integer", "number")
MAX_DESCRIPTOR_FIELDS = 3
LIST_LIMIT = 100


@dataclass(frozen=True)
class Description:
    """How the user names a row: field -> value pairs that single it out among their rows."""

    entity: str
    fields: tuple[tuple[str, Any], ...]
    uses_key: bool

    def text(self, *, owned: bool) -> str:
        noun = humanize(self.entity)
        details = ", ".join(f"{humanize(descriptor_label(name))}: {show(value)}" for name, value in self.fields)
        return f"{'my ' if owned else 'the '}{noun} ({details})"


class World:
    """Indexes over one seeded state for task synthesis."""

    def __init__(self, ontology: Ontology, graph: ToolGraph, session: Session) -> None:
        self.ontology = ontology
        self.graph = graph
        self.session = session
        self.person = ontology.entity(ontology.person)
        self.rows: dict[str, dict[str, Row]] = {
            entity.name: {row[entity.key]: row for row in session.rows(entity.name)} for entity in ontology.entities
        }
        self.path = self._owner_paths()
        self.owner: dict[str, dict[str, str]] = {name: {} for name in self.path}
        # Parents before children, so a row's owner is its parent's, looked up rather than walked up again.
        for entity in sorted(self.path, key=lambda name: len(self.path[name])):
            owners = self.owner[entity]
            for key, row in self.rows[entity].items():
                person = self._owner_of(entity, row)
                if person is not None:
                    owners[key] = person
        self.owned: dict[tuple[str, str], list[str]] = defaultdict(list)
        for name, owners in self.owner.items():
            for key, person in owners.items():
                self.owned[(person, name)].append(key)
        self.tools = {tool.name: tool for tool in graph.tools}
        self._ordered: dict[str, list[str]] = {}

    def keys_in_order(self, entity: str) -> list[str]:
        """The entity's keys, sorted (once per entity, not once per question)."""
        ordered = self._ordered.get(entity)
        if ordered is None:
            ordered = self._ordered[entity] = sorted(self.rows[entity])
        return ordered

    def _owner_paths(self) -> dict[str, list[OntologyRelation]]:
        """For each entity a person owns rows of: the relations from the person down to it."""
        relations = {relation.name: relation for relation in self.ontology.relations}
        return {
            entity: [relations[relation.name] for relation in reversed(path)]
            for entity, path in owner_paths(self.session.env.blueprint).items()
        }

    def _owner_of(self, entity: str, row: Row) -> str | None:
        if entity == self.person.name:
            return str(row[self.person.key])
        relation = self.path[entity][-1]
        return self.owner[relation.parent].get(row[relation.field])

    def entity(self, name: str) -> OntologyEntity:
        return self.ontology.entity(name)

    def is_owned(self, entity: str) -> bool:
        return entity in self.path

    def lookup_chain(self, entity: str, key: str, identify: ToolCall) -> list[ToolCall]:
        """Lookups an agent makes to reach a person's row: identify the person, then list down the path."""
        calls = [identify]
        row = self.rows[entity][key]
        chain = self.path[entity]
        parents = []
        current_entity, current = entity, row
        for relation in reversed(chain):
            parents.append((relation, current[relation.field]))
            current_entity = relation.parent
            current = self.rows[current_entity][current[relation.field]]
        for relation, parent_key in reversed(parents):
            child = self.entity(relation.child)
            calls.append(
                ToolCall(name=list_tool_name(child.plural), arguments={relation.field: parent_key, "limit": LIST_LIMIT})
            )
        return calls

    def describe(self, entity: str, key: str, among: list[str]) -> Description:
        """The fewest fields whose values tell this row apart from the `among` rows."""
        spec = self.entity(entity)
        row = self.rows[entity][key]
        candidates = self._descriptor_fields(spec)
        values = {other: self._values(spec, self.rows[entity][other], candidates) for other in among}
        mine = self._values(spec, row, candidates)
        for size in range(1, MAX_DESCRIPTOR_FIELDS + 1):
            for combo in itertools.combinations(range(len(candidates)), size):
                wanted = tuple(mine[i] for i in combo)
                if any(value is None for value in wanted):
                    continue
                clashes = sum(1 for other in among if other != key and tuple(values[other][i] for i in combo) == wanted)
                if clashes == 0:
                    return Description(entity, tuple((candidates[i], mine[i]) for i in combo), uses_key=False)
        return Description(entity, ((spec.key, key),), uses_key=True)

    def _descriptor_fields(self, spec: OntologyEntity) -> list[str]:
        fields: list[FieldSpec] = [f for f in spec.fields if f.type in DESCRIPTOR_TYPES]
        fields.sort(key=lambda f: (not f.searchable, f.type not in ("date", "datetime", "string"), f.type == "money"))
        names = [f.name for f in fields]
        for relation in self.ontology.relations:
            if relation.child == spec.name and not self.is_owned(relation.parent):
                label = self._label_field(relation.parent)
                if label is not None:
                    names.insert(0, f"{relation.field}->{label}")
        return names

    def _label_field(self, entity: str) -> str | None:
        spec = self.entity(entity)
        return next((f.name for f in spec.fields if f.searchable and f.type in ("string", "text")), None)

    def _values(self, spec: OntologyEntity, row: Row, names: list[str]) -> list[Any]:
        values = []
        for name in names:
            if "->" in name:
                field, label = name.split("->")
                relation = next(r for r in self.ontology.relations if r.child == spec.name and r.field == field)
                parent = self.rows[relation.parent].get(row[field])
                values.append(None if parent is None else parent[label])
            else:
                values.append(row[name])
        return values


def descriptor_label(name: str) -> str:
    """`product_id->name` reads as `product`."""
    return name.split("->", maxsplit=1)[0].removesuffix("_id") if "->" in name else name

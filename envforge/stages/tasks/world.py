"""The seeded state seen from the user's side: who owns which rows, how an agent reaches them with
lookup tools, and how a user would describe them without internal keys."""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from dataclasses import dataclass
from typing import Any

from envforge.hashing import hash_json
from envforge.ir.blueprint import FieldSpec
from envforge.ir.naming import list_tool_name
from envforge.ir.ontology import Ontology, OntologyEntity, OntologyRelation
from envforge.ir.ownership import owner_paths
from envforge.ir.tasks import ToolCall
from envforge.ir.toolspec import ToolGraph
from envforge.runtime.session import Session
from envforge.stages.tasks.artefacts import displayed_entities
from envforge.stages.tasks.wording import field_phrase
from envforge.text import as_date

Row = dict[str, Any]
DESCRIPTOR_TYPES = ("enum", "date", "datetime", "string", "money", "integer", "number")
MAX_DESCRIPTOR_FIELDS = 3
LIST_LIMIT = 100


@dataclass(frozen=True)
class Description:
    """How the user names a row: details that single it out among its siblings (the rows under the same
    parent), and how they name that parent in turn."""

    entity: str
    fields: tuple[tuple[str, Any], ...]
    """(field, value) pairs; `ref->label` names a row by its parent's label (`product_id->name`), and
    `latest:<date field>` / `earliest:<date field>` by being the newest or oldest of its siblings."""
    uses_key: bool
    parent: Description | None = None
    """The parent row's own description, when the row sits under a parent other than the person."""
    one_to_one: bool = False
    """The row is its parent's only child of its kind (a payment for an order)."""
    under: str | None = None
    """The entity of a parent the sentence names elsewhere (`About my order: cancel the item`)."""

    def record_keys(self) -> list[str]:
        """Keys the user states because nothing else singles a row out (on this row or up its parents)."""
        mine = [str(value) for _, value in self.fields] if self.uses_key else []
        return mine + (self.parent.record_keys() if self.parent is not None else [])

    def keyed(self, displayed: set[str]) -> bool:
        """Only a key tells this row, or one of its parents, apart, though people know rows of its entity by a
        name (`displayed`): no user would name it so."""
        if self.uses_key and self.entity in displayed:
            return True
        return self.parent is not None and self.parent.keyed(displayed)

    def stated(self) -> list[Any]:
        """The values this description states (labels, dates, statuses), up its parents."""
        mine = [value for name, value in self.fields if not name.startswith(("latest:", "earliest:", "period:"))]
        return mine + (self.parent.stated() if self.parent is not None else [])


@dataclass(frozen=True)
class Span:
    """The newest and oldest of some rows' values of a field (as text, how rows are compared by date), each with
    how many rows hold it, and how many hold none: a row is strictly the newest when it alone holds the newest."""

    latest: str
    at_latest: int
    earliest: str
    at_earliest: int
    missing: int

    @classmethod
    def of(cls, values: list[Any]) -> Span:
        texts = [str(value) for value in values if value is not None]
        latest, earliest = max(texts, default=""), min(texts, default="")
        return cls(latest, texts.count(latest), earliest, texts.count(earliest), len(values) - len(texts))


class World:
    """Indexes over one seeded state for task synthesis."""

    def __init__(self, ontology: Ontology, graph: ToolGraph, session: Session) -> None:
        self.ontology = ontology
        self.graph = graph
        self.session = session
        self.person = ontology.entity(ontology.person)
        self.linked = set(session.env.blueprint.linked_persons)
        """A fused world's other person entities: the same human's records in the other domains."""
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
        self.displayed = displayed_entities(session.env.blueprint)
        """Entities whose rows users know by a name they see, never by a key."""
        self._ordered: dict[str, list[str]] = {}
        self.children: dict[str, dict[Any, list[str]]] = {}
        """Entity -> parent key -> child keys, built when first asked."""
        # Drafting asks for the same rows' descriptions at every attempt that names them, and a catalog row's is
        # told apart from every row of its entity: each is made once, from each row's values read once.
        self._owned_descriptions: dict[tuple[str, str], Description] = {}
        self._catalog_descriptions: dict[tuple[str, str, tuple[str, ...]], Description] = {}
        self._values_of: dict[tuple[str, tuple[str, ...]], dict[str, tuple[Any, ...]]] = {}
        self._tallies: dict[tuple[str, tuple[str, ...], tuple[int, ...], bool, Any], Counter[tuple[Any, ...]]] = {}
        self._spans: dict[tuple[str, str, bool, Any], Span] = {}
        self._column_values: dict[tuple[str, tuple[str, ...], bool, Any], list[tuple[Any, ...]]] = {}
        self._texts: dict[tuple[str, str, int], list[str]] = {}
        self.singled_out: dict[tuple[str, tuple[str, ...]], bool] = {}
        """(person, credential) -> whether listing the people by the person's values of the credential's fields
        finds them alone (`envforge.stages.tasks.identity`): a scan of every person, made once."""

    def keys_in_order(self, entity: str) -> list[str]:
        """The entity's keys, sorted (once per entity, not once per question)."""
        ordered = self._ordered.get(entity)
        if ordered is None:
            ordered = self._ordered[entity] = sorted(self.rows[entity])
        return ordered

    def distinct_texts(self, entity: str, field: str, max_length: int) -> list[str]:
        """The distinct values (as text, none empty, none longer than `max_length`) the entity's rows hold in
        `field`, sorted: found once per field and length, for the caller to shuffle a copy of."""
        found = self._texts.get((entity, field, max_length))
        if found is None:
            rows = self.rows.get(entity, {}).values()
            seen = sorted({str(row[field]) for row in rows if row.get(field) not in (None, "")})
            found = self._texts[(entity, field, max_length)] = [value for value in seen if len(value) <= max_length]
        return found

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

    def lookup_chain(
        self, entity: str, key: str, identify: ToolCall, description: Description | None = None
    ) -> list[ToolCall]:
        """Lookups a careful agent makes to reach a person's row: identify the person, list down the path, and
        look up each row a description names by its label (the product called "Desk Lamp") where it is listed."""
        calls = [identify]
        levels: dict[str, Description] = {}
        while description is not None:
            levels[description.entity] = description
            description = description.parent
        parents = []
        current = self.rows[entity][key]
        for relation in reversed(self.path[entity]):
            parents.append((relation, current[relation.field]))
            current = self.rows[relation.parent][current[relation.field]]
        for relation, parent_key in reversed(parents):
            child = self.entity(relation.child)
            calls.append(
                ToolCall(name=list_tool_name(child.plural), arguments={relation.field: parent_key, "limit": LIST_LIMIT})
            )
            level = levels.get(child.name)
            if level is not None:
                calls.extend(self.label_lookups(level))
        return calls

    def label_lookups(self, description: Description) -> list[ToolCall]:
        """For each `ref->label` detail: list the labelled rows by that label (their keys then match the row)."""
        calls = []
        for name, value in description.fields:
            if "->" not in name:
                continue
            field, label = name.split("->")
            relation = next(r for r in self.ontology.relations if r.child == description.entity and r.field == field)
            parent = self.entity(relation.parent)
            tool = self.tools.get(list_tool_name(parent.plural))
            if tool is not None and label in tool.filters:
                calls.append(ToolCall(name=tool.name, arguments={label: value, "limit": LIST_LIMIT}))
        return calls

    def siblings(self, entity: str, key: str) -> list[str]:
        """Rows of `entity` under the same owned parent (or, for a child of the person, the person's rows)."""
        relation = self.path[entity][-1] if self.path.get(entity) else None
        if relation is None:
            return [key]
        grouped = self.children.get(entity)
        if grouped is None:
            grouped = self.children[entity] = defaultdict(list)
            for other in self.keys_in_order(entity):
                grouped[self.rows[entity][other][relation.field]].append(other)
        return grouped[self.rows[entity][key][relation.field]]

    def describe_owned(self, entity: str, key: str) -> Description:
        """How the person names one of their rows: among its siblings, with its parent named the same way."""
        found = self._owned_descriptions.get((entity, key))
        if found is None:
            found = self._owned_descriptions[(entity, key)] = self._describe_owned(entity, key)
        return found

    def _describe_owned(self, entity: str, key: str) -> Description:
        relation = self.path[entity][-1] if self.path.get(entity) else None
        own = self.describe(
            entity,
            key,
            self.siblings(entity, key),
            group=self.rows[entity][key].get(relation.field) if relation else None,
        )
        if relation is None or relation.parent == self.person.name or relation.parent in self.linked:
            return own
        parent = self.describe_owned(relation.parent, self.rows[entity][key][relation.field])
        one_to_one = relation.cardinality == "one_to_one" or len(self.siblings(entity, key)) == 1
        if one_to_one:
            own = Description(entity, (), uses_key=False)
        return Description(own.entity, own.fields, own.uses_key, parent, one_to_one)

    def describe_catalog(self, entity: str, key: str, searchable: list[str]) -> Description:
        """How the user names a catalog row: apart from every other row of its entity, by details an agent can
        search by (`searchable`)."""
        asked = (entity, key, tuple(searchable))
        found = self._catalog_descriptions.get(asked)
        if found is None:
            found = self._catalog_descriptions[asked] = self.describe(entity, key, None, searchable)
        return found

    def describe(
        self,
        entity: str,
        key: str,
        among: list[str] | None,
        searchable: list[str] | None = None,
        *,
        group: Any = None,
    ) -> Description:
        """The fewest details that tell this row apart from the `among` rows (None: every row of the entity); with
        `searchable`, only details an agent can search by (those fields, and labels of parents it can look up).
        `group` names the `among` rows (their parent's key), which are then counted once for all their rows."""
        spec = self.entity(entity)
        if len(self.rows[entity] if among is None else among) <= 1:
            return Description(entity, (), uses_key=False)
        candidates = self._descriptor_fields(spec)
        if searchable is not None:
            candidates = [name for name in candidates if name.split("->", 1)[0] in searchable]
        if int(hash_json(key)[:2], 16) % 2:
            # Every other row by its exact date ("placed on February 22"), the rest by roughly when.
            candidates = [name for name in candidates if not name.startswith("period:")] + [
                name for name in candidates if name.startswith("period:")
            ]
        fields = tuple(candidates)
        mine = self._row_values(spec, fields, key)
        for size in range(1, MAX_DESCRIPTOR_FIELDS + 1):
            for combo in itertools.combinations(range(len(fields)), size):
                wanted = tuple(mine[i] for i in combo)
                if any(value is None for value in wanted):
                    continue
                if among is None or group is not None:
                    # Less the row itself, which its siblings include.
                    clashes = self._tally(spec, fields, combo, among, group)[wanted] - 1
                else:
                    clashes = sum(
                        1
                        for other in among
                        if other != key and tuple(self._row_values(spec, fields, other)[i] for i in combo) == wanted
                    )
                if clashes == 0:
                    return Description(entity, tuple((fields[i], mine[i]) for i in combo), uses_key=False)
            if size == 1:
                extreme = self._extreme(spec, key, among, group)
                if extreme is not None:
                    return Description(entity, (extreme,), uses_key=False)
        return Description(entity, ((spec.key, key),), uses_key=True)

    def _row_values(self, spec: OntologyEntity, fields: tuple[str, ...], key: str) -> tuple[Any, ...]:
        known = self._values_of.setdefault((spec.name, fields), {})
        found = known.get(key)
        if found is None:
            found = known[key] = tuple(self._values(spec, self.rows[spec.name][key], list(fields)))
        return found

    def _tally(
        self,
        spec: OntologyEntity,
        fields: tuple[str, ...],
        combo: tuple[int, ...],
        among: list[str] | None,
        group: Any,
    ) -> Counter[tuple[Any, ...]]:
        """How many of the `among` rows (None: every row of the entity) hold each combination of the `combo`
        fields' values; `among` is counted once per `group`."""
        asked = (spec.name, fields, combo, among is None, group)
        tally = self._tallies.get(asked)
        if tally is None:
            columns = self._columns(spec, fields, among, group)
            tally = self._tallies[asked] = Counter(zip(*(columns[i] for i in combo), strict=True))
        return tally

    def _columns(
        self, spec: OntologyEntity, fields: tuple[str, ...], among: list[str] | None, group: Any
    ) -> list[tuple[Any, ...]]:
        """Each of the `fields`' values over the `among` rows (None: every row of the entity): the tallies of
        their combinations read them from here rather than row by row."""
        asked = (spec.name, fields, among is None, group)
        columns = self._column_values.get(asked)
        if columns is None:
            keys = self.rows[spec.name] if among is None else among
            columns = list(zip(*(self._row_values(spec, fields, key) for key in keys), strict=True))
            if among is None or group is not None:
                self._column_values[asked] = columns
        return columns

    def _extreme(self, spec: OntologyEntity, key: str, among: list[str] | None, group: Any) -> tuple[str, Any] | None:
        """`latest:placed_on` when this row is strictly the newest of `among` (None: every row of the entity) by
        its first date field; `among` is summed up once per `group` (None: at each call)."""
        dates = [f for f in spec.fields if f.type in ("date", "datetime") and not f.nullable]
        if not dates:
            return None
        name = dates[0].name
        mine = self.rows[spec.name][key][name]
        span = self._span(spec.name, name, among, group)
        if mine is None or span.missing:
            return None
        text = str(mine)
        if text == span.latest and span.at_latest == 1:
            return (f"latest:{name}", mine)
        if text == span.earliest and span.at_earliest == 1:
            return (f"earliest:{name}", mine)
        return None

    def _span(self, entity: str, field: str, among: list[str] | None, group: Any) -> Span:
        asked = (entity, field, among is None, group)
        span = self._spans.get(asked)
        if span is None:
            rows = self.rows[entity]
            values = [row[field] for row in rows.values()] if among is None else [rows[key][field] for key in among]
            span = Span.of(values)
            if among is None or group is not None:
                self._spans[asked] = span
        return span

    def listed(self, entity: str) -> set[str]:
        """The fields the entity's list tool shows of each row: what an agent tells listed rows apart by."""
        lister = self.tools.get(list_tool_name(self.entity(entity).plural))
        return set(lister.shown_fields() if lister is not None else [f.name for f in self.entity(entity).fields])

    def _descriptor_fields(self, spec: OntologyEntity) -> list[str]:
        listed = self.listed(spec.name)
        fields: list[FieldSpec] = [
            f for f in spec.fields if f.type in DESCRIPTOR_TYPES and f.name in listed and field_phrase(f) is not None
        ]
        fields.sort(key=lambda f: (not f.searchable, f.type not in ("date", "datetime", "string"), f.type == "money"))
        names = [f.name for f in fields]
        # "placed in late February" before "placed on February 22": people remember roughly when.
        periods = [f"period:{f.name}" for f in fields if f.type in ("date", "datetime")]
        first_date = next((index for index, name in enumerate(names) if name in {p[7:] for p in periods}), len(names))
        names[first_date:first_date] = periods
        labels = []
        for relation in self.ontology.relations:
            if relation.child == spec.name and not self.is_owned(relation.parent):
                label = self._label_field(relation.parent)
                lister = self.tools.get(list_tool_name(self.entity(relation.parent).plural))
                if label is not None and lister is not None and label in lister.filters:
                    labels.append(f"{relation.field}->{label}")
        # In the relations' order: a holding is its book's title first, at its branch second.
        return labels + names

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
            elif name.startswith("period:"):
                values.append(period(row[name.removeprefix("period:")]))
            else:
                values.append(row[name])
        return values


def period(value: Any) -> str | None:
    """`2026-02-22` -> `2026-02 late`: the third of the month a date falls in."""
    day = as_date(value)
    if day is None:
        return None
    third = "early" if day.day <= 10 else "mid" if day.day <= 20 else "late"
    return f"{day:%Y-%m} {third}"

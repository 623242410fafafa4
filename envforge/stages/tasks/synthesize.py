"""Task synthesis: walk the tool graph from the user to their rows, run the chain on a fork of the
state, and keep what succeeds, with its golden diff."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass, field
from typing import Any

from faker import Faker

from envforge.fakedata import faker_method_for
from envforge.hashing import canonical_json, hash_json
from envforge.ir.answers import AnswerSpec, AnswerType
from envforge.ir.blueprint import ActionSpec, Blueprint, PersonaSpec
from envforge.ir.naming import list_tool_name
from envforge.ir.ontology import Ontology
from envforge.ir.tasks import (
    Difficulty,
    IdentitySpec,
    TaskKind,
    TaskSpec,
    ToolCall,
    UserScenario,
    VerifierSpec,
)
from envforge.ir.toolspec import ToolGraph, ToolSpec
from envforge.runtime.changes import fold_history
from envforge.runtime.environment import Environment
from envforge.runtime.golden import expected_calls, footprint_of
from envforge.runtime.session import Session
from envforge.stages.tasks import phrasing
from envforge.stages.tasks.world import Description, World
from envforge.text import humanize, show

PERSONS_PER_ACTION = 24
CATALOG_CANDIDATES = 8
OWNED_CANDIDATES = 4
ATTEMPTS_PER_PERSON = 12
MULTI_PER_PERSON = 3
NUMBER_CHOICES = (1, 2, 3, 5, 10, 20, 25, 40, 50, 100, 250, 500)
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
MAX_RECORD_VALUES = 200
OTHER_ROWS_SEEN = 5
"""Other people's rows whose value of the asked field a question also lists as competing (what a list shows)."""
QUOTAS: dict[str, float] = {"write": 0.5, "multi_write": 0.25, "read": 0.25}
DEFAULT_PERSONA = PersonaSpec(name="customer", description="A regular user.", traits=[], knows=[])


@dataclass
class Draft:
    """A task before it has an id: what the user says and what the oracle does."""

    kind: TaskKind
    person: str
    persona: PersonaSpec
    identity: dict[str, Any]
    phrases: list[str]
    oracle: list[ToolCall]
    writes: int
    answer: str | None = None
    answer_spec: AnswerSpec | None = None
    hidden: dict[str, Any] = field(default_factory=dict)
    touched: set[tuple[str, str]] = field(default_factory=set)
    """Rows (entity, key) the writes are about; multi-write tasks combine drafts that share none."""
    ids: list[str] = field(default_factory=list)
    """Record keys the user states because no other detail singles the record out."""


class Synthesizer:
    def __init__(
        self,
        blueprint: Blueprint,
        ontology: Ontology,
        graph: ToolGraph,
        template: bytes,
        admitted: set[str],
        seed: int,
        session_type: type[Session] = Session,
    ) -> None:
        self.blueprint = blueprint
        self.graph = graph
        self.env = Environment(blueprint, graph, template, "")
        self.session = session_type(self.env)
        self.world = World(ontology, graph, self.session)
        self.admitted = admitted
        self.seed = seed
        self.faker = Faker("en_US")
        self.faker.seed_instance(hash_json([seed, "tasks"]))
        self.personas = blueprint.personas or [DEFAULT_PERSONA]
        self.template = template
        self.accumulative = {action.name for action in blueprint.actions if action.accumulative}

    def rng(self, *parts: Any) -> random.Random:
        return random.Random(hash_json([self.seed, *parts]))

    # --- who the user is -------------------------------------------------------------------------

    def persona_of(self, person: str) -> PersonaSpec:
        return self.personas[int(hash_json([self.seed, person])[:8], 16) % len(self.personas)]

    def identify(self, person: str, persona: PersonaSpec) -> tuple[ToolCall, dict[str, Any], dict[str, Any]]:
        """The lookup that finds the user, what they say about themselves, and what they keep back."""
        spec = self.world.person
        row = self.world.rows[spec.name][person]
        knows = [name for name in persona.knows if row.get(name) is not None]
        finders = [tool for tool in self.graph.tools if tool.operation == "find" and tool.entity == spec.name]
        finder = next((tool for tool in finders if tool.filters[0] in knows), finders[0] if finders else None)
        if finder is not None:
            name = finder.filters[0]
            call = ToolCall(name=finder.name, arguments={name: row[name]})
            stated: dict[str, Any] = {n: row[n] for n in ("first_name", "last_name") if n in knows}
            stated[name] = row[name]
        else:
            call = ToolCall(name=list_tool_name(spec.plural), arguments={n: row[n] for n in knows[:2]})
            stated = {n: row[n] for n in knows[:2]}
        hidden = {name: row[name] for name in knows if name not in stated}
        return call, stated, hidden

    # --- running chains on a fork ----------------------------------------------------------------

    def run(self, calls: list[ToolCall], person: str) -> tuple[bool, list[dict[str, Any]]]:
        """Play `calls` from the template, acting for `person`; stops at the first refused call."""
        self.session.reset()
        self.session.act_for(person)
        results: list[dict[str, Any]] = []
        for call in calls:
            ok, result = self.session.call_tool(call.name, call.arguments)
            if not ok:
                return False, results
            results.append(result)
        return True, results

    def lookups_reach(self, calls: list[ToolCall], results: list[dict[str, Any]], keys: set[str]) -> bool:
        """Every key the writes use was shown to the agent by some lookup before it."""
        seen = canonical_json(results)
        return all(key in seen for key in keys)

    # --- argument candidates ---------------------------------------------------------------------

    def plain_values(self, tool: ToolSpec, name: str, rng: random.Random) -> list[Any]:
        schema = tool.parameters["properties"][name]
        if "enum" in schema:
            values = list(schema["enum"])
            rng.shuffle(values)
            return values[:3]
        kind = schema.get("type")
        if kind in ("integer", "number"):
            low, high = schema.get("minimum", 1), schema.get("maximum", 1000)
            picks = [value for value in NUMBER_CHOICES if low <= value <= high] or [low]
            rng.shuffle(picks)
            return picks[:3]
        if kind == "boolean":
            return [True, False]
        if schema.get("format") == "date":
            return [self.blueprint.clock.date().isoformat()]
        method = getattr(self.faker, faker_method_for(name), self.faker.word)
        value = str(method())
        return [value[: schema.get("maxLength", 2000)]]

    def single_writes(self, action: ActionSpec, persons: list[str]) -> list[Draft]:
        tool = self.world.tools[action.name]
        owned_params = [p for p, entity in tool.param_refs.items() if self.world.is_owned(entity)]
        if not owned_params:
            return []
        drafts = []
        for person in persons:
            rng = self.rng(action.name, person)
            options: list[list[Any]] = []
            names = list(tool.parameters["properties"])
            for name in names:
                entity = tool.param_refs.get(name)
                if entity is None:
                    options.append(self.plain_values(tool, name, rng))
                elif self.world.is_owned(entity):
                    keys = sorted(self.world.owned.get((person, entity), []))
                    rng.shuffle(keys)
                    options.append(keys[:OWNED_CANDIDATES])
                else:
                    keys = sorted(self.world.rows[entity])
                    options.append(rng.sample(keys, min(CATALOG_CANDIDATES, len(keys))))
            combos = list(itertools.islice(itertools.product(*options), 500))
            rng.shuffle(combos)
            for combo in combos[:ATTEMPTS_PER_PERSON]:
                draft = self.write_draft(action, tool, person, dict(zip(names, combo, strict=True)))
                if draft is not None:
                    drafts.append(draft)
                    break
        return drafts

    def write_draft(self, action: ActionSpec, tool: ToolSpec, person: str, arguments: dict[str, Any]) -> Draft | None:
        persona = self.persona_of(person)
        identify, identity, hidden = self.identify(person, persona)
        lookups: list[ToolCall] = [identify]
        described: dict[str, Description] = {}
        for name, entity in tool.param_refs.items():
            key = arguments[name]
            if self.world.is_owned(entity):
                chain = self.world.lookup_chain(entity, key, identify)[1:]
                among = self.world.owned.get((person, entity), [key])
                described[name] = self.world.describe(entity, key, among)
            else:
                described[name] = self.world.describe(entity, key, list(self.world.rows[entity]))
                chain = self.catalog_lookup(entity, described[name])
            lookups.extend(call for call in chain if call not in lookups)
        write = ToolCall(name=action.name, arguments=arguments)
        ok, results = self.run([*lookups, write], person)
        if not ok or not self.lookups_reach(lookups, results[:-1], {str(arguments[n]) for n in tool.param_refs}):
            return None
        history = self.session.history()
        if not fold_history(history.writes, history.keys):
            return None  # asking to set what already holds (a quantity of 2 to 2) is no request
        primary = next(iter(described))
        owned = self.world.is_owned(tool.param_refs[primary])
        is_user = tool.param_refs[primary] == self.world.person.name
        target = "my account" if is_user else described[primary].text(owned=owned)
        extras: dict[str, Any] = {}
        for name, value in arguments.items():
            if name == primary:
                continue
            if name in described:
                extras[humanize(name.removesuffix("_id"))] = described[name].text(
                    owned=self.world.is_owned(tool.param_refs[name])
                )
            else:
                extras[name] = value
        phrase = phrasing.request_phrase(action, target, extras)
        touched = {(tool.param_refs[name], str(arguments[name])) for name in tool.param_refs}
        ids = [str(value) for d in described.values() if d.uses_key for _, value in d.fields]
        return Draft(
            "write", person, persona, identity, [phrase], [*lookups, write], 1, hidden=hidden, touched=touched, ids=ids
        )

    def catalog_lookup(self, entity: str, description: Description) -> list[ToolCall]:
        if description.uses_key:
            return []
        spec = self.world.entity(entity)
        tool = self.world.tools.get(list_tool_name(spec.plural))
        if tool is None:
            return []
        filters = {name: value for name, value in description.fields if name in tool.filters}
        return [ToolCall(name=tool.name, arguments={**filters, "limit": 100})]

    # --- combinations and questions --------------------------------------------------------------

    def multi_writes(self, singles: list[Draft], wanted: int) -> list[Draft]:
        by_person: dict[str, list[Draft]] = {}
        for draft in singles:
            by_person.setdefault(draft.person, []).append(draft)
        drafts = []
        for person in sorted(by_person):
            options = by_person[person]
            pairs = 0
            for first, second in itertools.combinations(options, 2):
                if pairs >= MULTI_PER_PERSON:
                    break
                if first.oracle[-1].name == second.oracle[-1].name or first.touched & second.touched:
                    continue
                lookups = [call for call in first.oracle[:-1]] + [
                    c for c in second.oracle[:-1] if c not in first.oracle[:-1]
                ]
                calls = [*lookups, first.oracle[-1], second.oracle[-1]]
                if self.independent(lookups, first.oracle[-1], second.oracle[-1], person):
                    drafts.append(
                        Draft(
                            "multi_write",
                            person,
                            first.persona,
                            first.identity,
                            [*first.phrases, *second.phrases],
                            calls,
                            2,
                            hidden=first.hidden,
                            touched=first.touched | second.touched,
                            ids=[*first.ids, *second.ids],
                        )
                    )
                    pairs += 1
            if len(drafts) >= wanted:
                break
        return drafts

    def independent(self, lookups: list[ToolCall], first: ToolCall, second: ToolCall, person: str) -> bool:
        """Both writes succeed in either order with the same end result: the user asks for two things, not a
        sequence, so an agent may do them in any order."""
        ends = []
        for writes in ((first, second), (second, first)):
            ok, _ = self.run([*lookups, *writes], person)
            if not ok:
                return False
            history = self.session.history()
            ends.append(canonical_json([change.model_dump() for change in fold_history(history.writes, history.keys)]))
        return ends[0] == ends[1]

    def reads(self, persons: list[str], wanted: int) -> list[Draft]:
        drafts: list[Draft] = []
        entities = [name for name in self.world.path if name != self.world.person.name]
        if not entities:
            return drafts
        for person in persons:
            rng = self.rng("read", person)
            entity = rng.choice(entities)
            keys = sorted(self.world.owned.get((person, entity), []))
            if not keys:
                continue
            draft = (
                self.count_question(person, entity, rng)
                if rng.random() < 0.3
                else self.field_question(person, entity, rng.choice(keys), rng)
            )
            if draft is not None:
                drafts.append(draft)
            if len(drafts) >= wanted:
                break
        return drafts

    def field_question(self, person: str, entity: str, key: str, rng: random.Random) -> Draft | None:
        persona = self.persona_of(person)
        identify, identity, hidden = self.identify(person, persona)
        description = self.world.describe(entity, key, self.world.owned[(person, entity)])
        used = {name for name, _ in description.fields}
        spec = self.world.entity(entity)
        row = self.world.rows[entity][key]
        fields = [
            f for f in spec.fields if f.type in ANSWER_TYPES and f.name not in used and row[f.name] not in (None, "")
        ]
        if not fields or description.uses_key:
            return None
        asked = rng.choice(fields)
        lookups = self.world.lookup_chain(entity, key, identify)
        ok, results = self.run(lookups, person)
        if not ok or not self.lookups_reach(lookups, results, {key}):
            return None
        text = f"what is the {humanize(asked.name)} of {description.text(owned=True)}"
        value = row[asked.name]
        mine = self.world.owned[(person, entity)]
        rows = self.world.rows[entity]
        seen = (rows[other][asked.name] for other in self.world.keys_in_order(entity) if other not in mine)
        others = [rows[other][asked.name] for other in mine] + list(itertools.islice(seen, OTHER_ROWS_SEEN))
        answer = AnswerSpec(
            type=ANSWER_TYPES[asked.type],
            value=_canonical(value),
            choices=list(asked.values or []),
            competitors=sorted({_canonical(other) for other in others if other is not None and other != value}),
            stated=self.stated(identity, hidden, [value for _, value in description.fields]),
            records=self.records(person, {key}, list(asked.values or [])),
        )
        return Draft("read", person, persona, identity, [text], lookups, 0, show(value), answer, hidden=hidden)

    def count_question(self, person: str, entity: str, rng: random.Random) -> Draft | None:
        relation = self.world.path[entity][-1]
        if relation.parent != self.world.person.name:
            return None
        spec = self.world.entity(entity)
        enums = [f for f in spec.fields if f.type == "enum"]
        if not enums:
            return None
        asked = rng.choice(enums)
        value = rng.choice(list(asked.values or []))
        persona = self.persona_of(person)
        identify, identity, hidden = self.identify(person, persona)
        listing = ToolCall(
            name=list_tool_name(spec.plural), arguments={relation.field: person, asked.name: value, "limit": 100}
        )
        ok, results = self.run([identify, listing], person)
        if not ok:
            return None
        total = results[-1]["total"]
        text = f"how many of my {humanize(spec.plural)} have {humanize(asked.name)} {show(value)}"
        answer = AnswerSpec(
            type="count",
            value=str(total),
            stated=self.stated(identity, hidden, [value]),
            records=self.records(person, set(), list(asked.values or [])),
        )
        return Draft(
            "read", person, persona, identity, [text], [identify, listing], 0, str(total), answer, hidden=hidden
        )

    def stated(self, identity: dict[str, Any], hidden: dict[str, Any], described: list[Any]) -> list[str]:
        """What the question and the user say, which an answer may repeat."""
        values = [*identity.values(), *hidden.values(), *described]
        return sorted({_canonical(value) for value in values if value is not None} | {show(v) for v in described})

    def records(self, person: str, asked: set[str], asked_choices: list[str]) -> list[str]:
        """Keys and text of the person's rows, and the environment's status words: an answer that repeats many of
        them dumps records."""
        values: set[str] = set()
        for entity in self.world.path:
            spec = self.world.entity(entity)
            texts = [f.name for f in spec.fields if f.type in ("string", "text")]
            keys = [person] if entity == self.world.person.name else self.world.owned.get((person, entity), [])
            for key in keys:
                if key not in asked:
                    values.add(key)
                row = self.world.rows[entity][key]
                values.update(str(row[name]) for name in texts if row[name] is not None and len(str(row[name])) >= 3)
        return sorted(values)[:MAX_RECORD_VALUES] + self.vocabulary(asked_choices)

    def vocabulary(self, asked: list[str]) -> list[str]:
        """The environment's status words outside the asked field's: naming many of them is a shotgun, not an answer."""
        words = {
            humanize(value) for entity in self.blueprint.entities for f in entity.fields for value in f.values or []
        }
        return sorted(words - {humanize(value) for value in asked})

    # --- from drafts to tasks --------------------------------------------------------------------

    def task(self, draft: Draft, task_id: str) -> TaskSpec:
        rng = self.rng("phrase", task_id)
        if draft.kind == "read":
            instruction = phrasing.question(draft.persona, draft.identity, draft.phrases[0], rng)
        else:
            instruction = phrasing.request(draft.persona, draft.identity, draft.phrases, rng)
        ok, _ = self.run(draft.oracle, draft.person)
        if not ok:
            raise RuntimeError(f"the oracle of {task_id} no longer succeeds")
        history = self.session.history()
        identity = None
        if draft.writes:
            stated = [str(value) for value in [*draft.identity.values(), *draft.hidden.values()] if value is not None]
            identity = IdentitySpec(entity=self.world.person.name, person=draft.person, stated=sorted(set(stated)))
        distractors = len(self.admitted - {call.name for call in draft.oracle})
        length = len(draft.oracle)
        band = (
            "easy" if length <= 2 and draft.writes <= 1 else "medium" if length <= 4 and draft.writes <= 1 else "hard"
        )
        return TaskSpec(
            id=task_id,
            kind=draft.kind,
            instruction=instruction,
            scenario=UserScenario(
                persona=draft.persona.name,
                person=draft.person,
                known={**draft.identity, **({"record_ids": draft.ids} if draft.ids else {})},
                hidden=draft.hidden,
            ),
            oracle=draft.oracle,
            expected_answer=draft.answer,
            difficulty=Difficulty(chain_length=length, writes=draft.writes, distractors=distractors, band=band),
            verifier=VerifierSpec(
                task_id=task_id,
                expected_changes=fold_history(history.writes, history.keys),
                expected_calls=expected_calls(history, self.accumulative),
                footprint=footprint_of(history),
                identity=identity,
                answer=draft.answer_spec,
            ),
        )


def _canonical(value: Any) -> str:
    """A stored value as an answer spec writes it: money with cents, booleans lower-case, dates ISO."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _dedupe(drafts: list[Draft]) -> list[Draft]:
    seen: set[str] = set()
    unique = []
    for draft in drafts:
        key = canonical_json([[call.model_dump() for call in draft.oracle], draft.phrases])
        if key not in seen:
            seen.add(key)
            unique.append(draft)
    return unique


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
) -> tuple[list[TaskSpec], dict[str, int]]:
    """Up to `count` distinct tasks (about half single writes, a quarter multi-write, a quarter read),
    and how many drafts of each kind were found. `session_type` plays the oracles (`envforge bench` passes one
    that resets the old way, as its baseline)."""
    synthesizer = Synthesizer(blueprint, ontology, graph, template, admitted, seed, session_type)
    persons = sorted(synthesizer.world.rows[ontology.person])
    random.Random(hash_json([seed, "persons"])).shuffle(persons)
    singles: list[Draft] = []
    for action in blueprint.actions:
        if action.name in admitted:
            singles.extend(synthesizer.single_writes(action, persons[:PERSONS_PER_ACTION]))
    singles = _dedupe(singles)
    quota: dict[str, int] = {kind: round(count * share) for kind, share in QUOTAS.items()}
    multis = _dedupe(synthesizer.multi_writes(singles, quota["multi_write"] * 2))
    reads = _dedupe(synthesizer.reads(persons * 3, quota["read"] * 2))
    pools: dict[str, list[Draft]] = {"write": singles, "multi_write": multis, "read": reads}
    picked = {kind: pool[: quota[kind]] for kind, pool in pools.items()}
    leftovers = [draft for kind, pool in pools.items() for draft in pool[quota[kind] :]]
    picked["write"] = [*picked["write"], *leftovers[: max(0, count - sum(map(len, picked.values())))]]
    # Interleave kinds in proportion, so a gate that stops at the requested count keeps the mix.
    ranked = [
        (index / len(drafts), order, draft)
        for order, drafts in enumerate(picked.values())
        for index, draft in enumerate(drafts)
    ]
    chosen = [draft for _, _, draft in sorted(ranked, key=lambda item: (item[0], item[1]))]
    tasks = [
        synthesizer.task(draft, f"{blueprint.domain}-{index:04d}")
        for index, draft in enumerate(chosen[:count], start=1)
    ]
    found = {kind: len(pool) for kind, pool in pools.items()}
    return tasks, found

"""Task synthesis: walk the tool graph from the user to their rows, run each chain on a fork of the state, and
keep what succeeds, with its golden history.

A task is told the way a user tells it: rows named by what they bought or when, details held back until the
agent asks, several requests about one thing told as one story, and requests a policy forbids or changes next
to ones it allows.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from faker import Faker

from envforge.fakedata import faker_method_for
from envforge.hashing import canonical_json, hash_json
from envforge.ir.answers import AnswerSpec, AnswerType
from envforge.ir.blueprint import ActionSpec, Blueprint, PersonaSpec, UpdateEffect
from envforge.ir.compose import domains_of_calls, plain_names, tool_domains
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
from envforge.runtime.provenance import provenance_violations
from envforge.runtime.session import Session
from envforge.stages.tasks import phrasing, wording
from envforge.stages.tasks.arguments import seeded_values, written_fields
from envforge.stages.tasks.phrasing import Detail, Phraser
from envforge.stages.tasks.world import Description, World
from envforge.text import show

PERSONS_PER_ACTION = 24
CATALOG_CANDIDATES = 8
OWNED_CANDIDATES = 4
ATTEMPTS_PER_PERSON = 12
MULTI_PER_PERSON = 3
PAIRINGS = 4
"""Allowed requests one forbidden request is asked next to, each a task of its own."""
ASK_SHARE = 0.7
"""Share of requests whose details (a reason, the new address) the user gives only when asked."""
VAGUE_SHARE = 0.5
"""Share of requests about one of several rows where the user says which only when asked."""
NUMBER_CHOICES = (1, 2, 3, 5, 10, 20, 25, 40, 50, 100, 250, 500, 1000, 2500, 10000, 30000)
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
QUOTAS: dict[str, float] = {"write": 0.27, "multi_write": 0.2, "policy": 0.33, "read": 0.2}
CROSS_SHARE = 0.4
"""In a fused world, the share of picked drafts that cross domains when enough do (the acceptance floor is 0.3)."""
DEFAULT_PERSONA = PersonaSpec(name="customer", description="A regular user.", traits=[], knows=[])


@dataclass
class Identity:
    """How the user is found: the lookup, what they say up front, and what they keep back."""

    call: ToolCall
    stated: dict[str, Any]
    hidden: dict[str, Any]


@dataclass
class Part:
    """One request: an action on rows the user names, with the details they give or hold back."""

    action: ActionSpec
    arguments: dict[str, Any]
    target: Description | None
    """The row the request is about, or None when it is the user's own account."""
    owned: bool
    others: list[tuple[str, Description]]
    """Further rows the request names, by parameter (`to_account_id`)."""
    details: list[Detail]
    asked: bool
    """The details are held back until the agent asks."""
    vague: bool = False
    """The user says which row only when asked."""
    lookups: list[ToolCall] = field(default_factory=list)
    target_param: str = ""


@dataclass
class Draft:
    """A task before it has an id: what the user says and what the oracle does."""

    kind: TaskKind
    person: str
    persona: PersonaSpec
    identity: Identity
    oracle: list[ToolCall]
    writes: int
    parts: list[Part] = field(default_factory=list)
    forbidden: Part | None = None
    """A request a policy forbids: the user asks, the right run does not do it."""
    offered: bool = False
    """The only part breaks a policy that offers something instead; the user accepts the offer."""
    question: str | None = None
    answer: str | None = None
    answer_spec: AnswerSpec | None = None
    touched: set[tuple[str, str]] = field(default_factory=set)
    """Rows (entity, key) the writes are about; multi-write tasks combine drafts that share none."""
    policies: list[str] = field(default_factory=list)
    refused: list[ToolCall] = field(default_factory=list)
    """The forbidden request as asked (for the gate's `policy_breach` mutants)."""
    family: str = ""
    """The intent, for balancing and for the report's diversity figures."""


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
        self.phraser = Phraser(ontology, blueprint.clock.date(), plain_names(blueprint))
        self.tool_domains = tool_domains(blueprint) if blueprint.composed_of else {}
        """In a fused world, each tool's member domains, computed once for the many drafts asked about."""
        self.admitted = admitted
        self.seed = seed
        self.faker = Faker("en_US")
        self.faker.seed_instance(hash_json([seed, "tasks"]))
        self.personas = blueprint.personas or [DEFAULT_PERSONA]
        self.template = template
        self.accumulative = {action.name for action in blueprint.actions if action.accumulative}
        self.failures: dict[str, Counter[str]] = {action.name: Counter() for action in blueprint.actions}
        """Why attempts at each action failed: the report's reason for an action no task reaches."""
        self.forbidden: list[Draft] = []
        self.offers: list[Draft] = []
        self.rules = {policy.id for policy in blueprint.policies if policy.actions}
        """Business rules on requests; entity invariants guard the data, and no user asks to break them."""
        self.governed = {name for policy in blueprint.policies for name in policy.actions or []}
        self.rules_text = [policy.text for policy in blueprint.policies]

    def rng(self, *parts: Any) -> random.Random:
        return random.Random(hash_json([self.seed, *parts]))

    # --- who the user is -------------------------------------------------------------------------

    def persona_of(self, person: str) -> PersonaSpec:
        return self.personas[int(hash_json([self.seed, person])[:8], 16) % len(self.personas)]

    def identify(self, person: str, persona: PersonaSpec, rng: random.Random) -> Identity | None:
        """Find the user by what their persona knows; never by what it does not. Sometimes the user gives
        only their name up front and the finding detail when asked."""
        spec = self.world.person
        row = self.world.rows[spec.name][person]
        knows = [name for name in persona.knows if row.get(name) not in (None, "")]
        names: dict[str, Any] = {name: row[name] for name in ("first_name", "last_name") if name in knows}
        finders = [
            tool
            for tool in self.graph.tools
            if tool.operation == "find" and tool.entity == spec.name and tool.filters[0] in knows
        ]
        if finders:
            name = rng.choice(finders).filters[0]
            call = ToolCall(name=next(t.name for t in finders if t.filters[0] == name), arguments={name: row[name]})
            stated = dict(names)
            if not names or rng.random() < 0.5:
                stated[name] = row[name]
            hidden = {n: row[n] for n in knows if n not in stated}
            return Identity(call, stated, hidden)
        lister = self.world.tools.get(list_tool_name(spec.plural))
        usable = [name for name in knows if lister is not None and name in lister.filters]
        if lister is None or not usable:
            return None
        arguments = {name: row[name] for name in usable[:3]}
        matches = [
            key for key, other in self.world.rows[spec.name].items() if all(other[n] == v for n, v in arguments.items())
        ]
        if matches != [person]:
            return None
        stated = {name: row[name] for name in usable[:3]}
        return Identity(
            ToolCall(name=lister.name, arguments={**arguments, "limit": 10}),
            stated,
            {n: row[n] for n in knows if n not in stated},
        )

    # --- running chains on a fork ----------------------------------------------------------------

    def run(self, calls: list[ToolCall], person: str) -> tuple[bool, list[dict[str, Any]]]:
        """Play `calls` from the template, acting for `person`; stops at the first refused call."""
        self.session.reset()
        self.session.act_for(person)
        results: list[dict[str, Any]] = []
        for call in calls:
            ok, result = self.session.call_tool(call.name, call.arguments)
            if not ok:
                results.append(result)
                return False, results
            results.append(result)
        return True, results

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
        limit = schema.get("maxLength", 2000)
        targets = written_fields(self.blueprint, self.blueprint.action(tool.name), name)
        seeded = seeded_values(self.world.rows, targets, rng, limit)
        if seeded:
            return seeded
        field = targets[0][1] if targets else None
        hint = faker_method_for(field.name if field else name, long_text=field is not None and field.type == "text")
        method = getattr(self.faker, hint, self.faker.word)
        return [str(method())[:limit]]

    def single_writes(self, action: ActionSpec, persons: list[str]) -> list[Draft]:
        tool = self.world.tools[action.name]
        owned_params = [p for p, entity in tool.param_refs.items() if self.world.is_owned(entity)]
        if not owned_params:
            self.failures[action.name]["no parameter names a row the user owns"] += 1
            return []
        governed = action.name in self.governed
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
            if any(not option for option in options):
                self.failures[action.name][
                    f"the user has no {names[[bool(o) for o in options].index(False)]} to name"
                ] += 1
                continue
            combos = list(itertools.islice(itertools.product(*options), 500))
            rng.shuffle(combos)
            found = False
            breaches = len(self.forbidden) + len(self.offers)
            # Past the first success, keep trying for a request a policy forbids or changes (a policy task).
            for combo in combos[: ATTEMPTS_PER_PERSON * (2 if governed else 1)]:
                draft = self.write_draft(action, tool, person, dict(zip(names, combo, strict=True)), rng)
                if draft is not None and not found:
                    drafts.append(draft)
                    found = True
                if found and (not governed or len(self.forbidden) + len(self.offers) > breaches):
                    break
        return drafts

    def part_of(
        self,
        action: ActionSpec,
        tool: ToolSpec,
        person: str,
        arguments: dict[str, Any],
        identify: ToolCall,
        rng: random.Random,
    ) -> Part:
        lookups: list[ToolCall] = []
        target: Description | None = None
        owned = False
        others: list[tuple[str, Description]] = []
        target_param = ""
        refs = sorted(tool.param_refs.items(), key=lambda item: item[1] != action.entity)
        for name, entity in refs:
            key = arguments[name]
            if entity == self.world.person.name:
                continue
            if entity in self.world.linked:
                # The user's own record in another domain of a fused world: found, never named ("my customer").
                chain = self.world.lookup_chain(entity, key, identify)[1:]
                lookups.extend(call for call in chain if call not in lookups)
                continue
            if self.world.is_owned(entity):
                described = self.world.describe_owned(entity, key)
                chain = self.world.lookup_chain(entity, key, identify, described)[1:]
            else:
                lister = self.world.tools.get(list_tool_name(self.world.entity(entity).plural))
                searchable = list(lister.filters) if lister is not None else []
                described = self.world.describe(entity, key, list(self.world.rows[entity]), searchable)
                chain = self.catalog_lookup(entity, key, described)
            lookups.extend(call for call in chain if call not in lookups)
            if target is None:
                target, owned, target_param = described, self.world.is_owned(entity), name
            else:
                others.append((name, described))
        details = [
            Detail(name, value, self._kind(action, name), self._replaces(action, name))
            for name, value in arguments.items()
            if name not in tool.param_refs
        ]
        asked = bool(details) and rng.random() < ASK_SHARE
        vague = (
            target is not None
            and owned
            and target.parent is None
            and not target.uses_key
            and bool(target.fields)
            and rng.random() < VAGUE_SHARE
        )
        return Part(action, arguments, target, owned, others, details, asked, vague, lookups, target_param)

    @staticmethod
    def _kind(action: ActionSpec, name: str) -> str:
        param = next(p for p in action.params if p.name == name)
        return param.type

    @staticmethod
    def _replaces(action: ActionSpec, name: str) -> bool:
        return any(
            isinstance(effect, UpdateEffect) and any(f"args.{name}" in source for source in effect.set.values())
            for effect in action.effects
        )

    def write_draft(
        self, action: ActionSpec, tool: ToolSpec, person: str, arguments: dict[str, Any], rng: random.Random
    ) -> Draft | None:
        persona = self.persona_of(person)
        identity = self.identify(person, persona, rng)
        if identity is None:
            self.failures[action.name]["the user's persona knows nothing that finds them"] += 1
            return None
        part = self.part_of(action, tool, person, arguments, identity.call, rng)
        write = ToolCall(name=action.name, arguments=arguments)
        lookups = [identity.call, *part.lookups]
        ok, results = self.run(lookups, person)
        if not ok:
            self.failures[action.name][_reason(results[-1])] += 1
            return None
        breached = self.session.breaches(action.name, arguments)
        offer = self.session.offer(action.name, arguments)
        ok, results = self.run([*lookups, write], person)
        touched = {(tool.param_refs[name], str(arguments[name])) for name in tool.param_refs}
        draft = Draft(
            "write", person, persona, identity, [*lookups, write], 1, [part], touched=touched, family=action.name
        )
        if offer is not None and self.offer_draft(draft, offer):
            return None
        if not ok:
            refusal = results[-1].get("error", {})
            if refusal.get("code") == "policy_violation" and refusal.get("policy") in self.rules:
                self.forbid(draft, [str(refusal["policy"])])
            self.failures[action.name][_reason(results[-1])] += 1
            return None
        if breached:
            self.forbid(draft, breached)
            return None
        history = self.session.history()
        if not fold_history(history.writes, history.keys):
            self.failures[action.name]["every attempt asked for what already holds"] += 1
            return None
        return draft

    def forbid(self, draft: Draft, policies: list[str]) -> None:
        """Keep a request a policy forbids, to ask for next to an allowed one."""
        part = draft.parts[0]
        part.asked = False
        part.vague = False
        self.forbidden.append(
            Draft(
                "write",
                draft.person,
                draft.persona,
                draft.identity,
                draft.oracle[:-1],
                0,
                forbidden=part,
                touched=draft.touched,
                policies=policies,
                family=f"refuse:{policies[0]}",
            )
        )

    def offer_draft(self, draft: Draft, offer: tuple[str, str, dict[str, Any]]) -> bool:
        """A request that breaks a policy offering something instead: the oracle takes the offer. False when
        the offer itself is refused or breaks another rule (the request is then forbidden outright)."""
        policy, tool, arguments = offer
        write = ToolCall(name=tool, arguments=arguments)
        lookups = draft.oracle[:-1]
        ok, _ = self.run([*lookups, write], draft.person)
        if not ok or self.session.breaches(write.name, arguments):
            return False
        history = self.session.history()
        if not fold_history(history.writes, history.keys):
            return False
        part = draft.parts[0]
        part.asked = False
        part.vague = False
        self.offers.append(
            Draft(
                "write",
                draft.person,
                draft.persona,
                draft.identity,
                [*lookups, write],
                1,
                [part],
                offered=True,
                touched=draft.touched,
                policies=[policy],
                refused=[draft.oracle[-1]],
                family=f"offer:{policy}",
            )
        )
        return True

    def catalog_lookup(self, entity: str, key: str, description: Description) -> list[ToolCall]:
        """How a careful agent finds a catalog row the user names: the labelled parents by their label, then
        the rows filtered by what the user said and by those parents (the fares of flight UA 120)."""
        if description.uses_key:
            return []
        spec = self.world.entity(entity)
        tool = self.world.tools.get(list_tool_name(spec.plural))
        if tool is None:
            return []
        row = self.world.rows[entity][key]
        filters: dict[str, Any] = {}
        for name, value in description.fields:
            field = name.split("->", 1)[0]
            if field in tool.filters:
                filters[field] = row[field] if "->" in name else value
        calls = [ToolCall(name=tool.name, arguments={**filters, "limit": 100})] if filters else []
        return [*self.world.label_lookups(description), *calls]

    # --- combinations ----------------------------------------------------------------------------

    def multi_writes(self, singles: list[Draft], wanted: int) -> list[Draft]:
        by_person: dict[str, list[Draft]] = {}
        for draft in singles:
            by_person.setdefault(draft.person, []).append(draft)
        stories: list[Draft] = []
        pairs: list[Draft] = []
        for person in sorted(by_person):
            count = 0
            for first, second in self.pairings(by_person[person]):
                if count >= MULTI_PER_PERSON:
                    break
                if not _combinable(first.parts[0], second.parts[0]) or first.touched & second.touched:
                    continue
                lookups = _merged(first.oracle[:-1], second.oracle[:-1])
                if not self.independent(lookups, first.oracle[-1], second.oracle[-1], person):
                    continue
                draft = Draft(
                    "multi_write",
                    person,
                    first.persona,
                    first.identity,
                    [*lookups, first.oracle[-1], second.oracle[-1]],
                    2,
                    [first.parts[0], second.parts[0]],
                    touched=first.touched | second.touched,
                    family=f"{first.family}+{second.family}",
                )
                (stories if _subject(draft.parts) is not None else pairs).append(draft)
                count += 1
        return (stories + pairs)[:wanted]

    def pairings(self, drafts: list[Draft]) -> list[tuple[Draft, Draft]]:
        """Pairs of one person's drafts; in a fused world those in two domains first, the mix the world is for."""
        pairs = list(itertools.combinations(drafts, 2))
        if not self.blueprint.composed_of:
            return pairs
        return sorted(pairs, key=lambda pair: not self.crosses(_joined(*pair)))

    def domains(self, draft: Draft) -> list[str]:
        """The member domains a draft works in (none outside a fused world)."""
        return domains_of_calls(self.tool_domains, [*draft.oracle, *draft.refused])

    def crosses(self, draft: Draft) -> bool:
        return len(self.domains(draft)) > 1

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

    def refusals(self, singles: list[Draft], wanted: int) -> list[Draft]:
        """A forbidden request next to an allowed one of the same user: only the allowed one is right."""
        allowed: dict[str, list[Draft]] = {}
        for draft in singles:
            allowed.setdefault(draft.person, []).append(draft)
        drafts = []
        for forbidden in self.forbidden:
            assert forbidden.forbidden is not None
            paired = 0
            others = allowed.get(forbidden.person, [])
            if self.blueprint.composed_of:
                others = sorted(others, key=lambda other: not self.crosses(_joined(forbidden, other)))
            for other in others:
                if other.touched & forbidden.touched or not _combinable(other.parts[0], forbidden.forbidden):
                    continue
                lookups = _merged(forbidden.oracle, other.oracle[:-1])
                write = other.oracle[-1]
                ok, _ = self.run([*lookups, write], forbidden.person)
                if not ok:
                    continue
                call = forbidden.forbidden
                still = (
                    self.session.breaches(call.action.name, call.arguments)
                    or not self.session.call_tool(call.action.name, call.arguments)[0]
                )
                if not still:
                    continue
                drafts.append(
                    Draft(
                        "write",
                        forbidden.person,
                        forbidden.persona,
                        forbidden.identity,
                        [*lookups, write],
                        1,
                        [other.parts[0]],
                        forbidden=call,
                        touched=other.touched,
                        policies=forbidden.policies,
                        refused=[ToolCall(name=call.action.name, arguments=call.arguments)],
                        family=f"{forbidden.family}+{other.family}",
                    )
                )
                paired += 1
                if paired >= PAIRINGS:
                    break
            if len(drafts) >= wanted:
                break
        return drafts

    # --- questions -------------------------------------------------------------------------------

    def reads(self, persons: list[str], wanted: int) -> list[Draft]:
        drafts: list[Draft] = []
        entities = [
            name for name in self.world.path if name != self.world.person.name and name not in self.world.linked
        ]
        if not entities:
            return drafts
        for person in persons:
            rng = self.rng("read", person, len(drafts))
            entity = rng.choice(entities)
            keys = sorted(self.world.owned.get((person, entity), []))
            if not keys:
                continue
            draft = (
                self.count_question(person, entity, rng)
                if rng.random() < 0.25
                else self.field_question(person, entity, rng.choice(keys), rng)
            )
            if draft is not None:
                drafts.append(draft)
            if len(drafts) >= wanted:
                break
        return drafts

    def field_question(self, person: str, entity: str, key: str, rng: random.Random) -> Draft | None:
        persona = self.persona_of(person)
        identity = self.identify(person, persona, rng)
        if identity is None:
            return None
        description = self.world.describe_owned(entity, key)
        if description.record_keys():
            return None
        used = {name.split(":")[-1] for name, _ in description.fields}
        spec = self.world.entity(entity)
        row = self.world.rows[entity][key]
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
        asked = rng.choice(fields)
        lookups = self.world.lookup_chain(entity, key, identity.call, description)
        ok, _ = self.run(lookups, person)
        if not ok:
            return None
        text = rng.choice(wording.question_forms(asked, self.phraser.row(description, rng, owned=True)))
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
            stated=self.stated(identity, description.stated()),
            records=self.records(person, {key}, list(asked.values or [])),
            field=f"{entity}.{asked.name}",
            key=key,
        )
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
        identity = self.identify(person, persona, rng)
        if identity is None:
            return None
        listing = ToolCall(
            name=list_tool_name(spec.plural), arguments={relation.field: person, asked.name: value, "limit": 100}
        )
        ok, results = self.run([identity.call, listing], person)
        if not ok:
            return None
        total = results[-1]["total"]
        plural = self.phraser.words(spec.plural)
        shown = wording.words(value)
        if asked.name in ("status", "state"):
            forms = [f"how many of my {plural} are {shown}", f"how many {shown} {plural} do I have"]
        else:
            noun = wording.field_noun(asked)
            forms = [
                f"how many of my {plural} have {shown} as their {noun}",
                f"how many {plural} with {noun} {shown} do I have",
            ]
        answer = AnswerSpec(
            type="count",
            value=str(total),
            stated=self.stated(identity, [value]),
            records=self.records(person, set(), list(asked.values or [])),
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

    def stated(self, identity: Identity, described: list[Any]) -> list[str]:
        """What the question and the user say, which an answer may repeat."""
        values = [*identity.stated.values(), *identity.hidden.values(), *described]
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
            wording.words(value)
            for entity in self.blueprint.entities
            for f in entity.fields
            for value in f.values or []
        }
        return sorted(words - {wording.words(value) for value in asked})

    # --- from drafts to tasks --------------------------------------------------------------------

    def render(self, draft: Draft, rng: random.Random) -> tuple[str, list[str], dict[str, Any], dict[str, str]]:
        """The instruction, the request clauses, the details held back, and the rows named only when asked."""
        if draft.kind == "read":
            assert draft.question is not None
            return (
                phrasing.question(draft.persona, draft.identity.stated, draft.question, rng),
                [draft.question],
                {},
                {},
            )
        details: dict[str, Any] = {}
        which: dict[str, str] = {}
        clauses = [self.clause(part, rng, details, which) for part in draft.parts]
        sentences: list[str] = []
        subject = _subject(draft.parts) if len(draft.parts) > 1 else None
        if len(draft.parts) == 2 and subject is not None:
            subject_text = self.phraser.row(subject, rng, owned=True)
            bare = [self.clause(part, rng, {}, {}, elide=subject) for part in draft.parts]
            sentences.append(
                wording.capital(
                    rng.choice(wording.STORIES).format(
                        subject=subject_text, first=bare[0], second=bare[1], first_bare=bare[0], second_bare=bare[1]
                    )
                )
            )
            sentences += self.detail_sentences(draft.parts, rng)
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
            sentences += self.detail_sentences(draft.parts, rng)
        else:
            sentences.append(rng.choice(wording.REQUESTS).format(request=clauses[0]))
            sentences += self.detail_sentences(draft.parts, rng)
        if draft.offered:
            sentences.append(rng.choice(wording.FALLBACK))
        if draft.forbidden is not None:
            forbidden = self.clause(draft.forbidden, rng, {}, {})
            lead = rng.choice(wording.LEADS)
            sentences.append(
                wording.capital(rng.choice(wording.REFUSED_ALSO).format(forbidden=forbidden, forbidden_lead=lead))
            )
            sentences += self.detail_sentences([draft.forbidden], rng)
            clauses.append(forbidden)
        if any(part.asked or part.vague for part in draft.parts) and rng.random() < 0.5:
            hint = rng.choice(wording.ASK_HINTS)
            if hint:
                sentences.append(hint)
        opener = phrasing.opener(draft.persona, draft.identity.stated, rng)
        return " ".join(part for part in (opener, *sentences) if part), clauses, details, which

    def clause(
        self,
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
                target_text = f"that {self.phraser.words(elide.entity)}"
            elif part.vague:
                target_text = f"one of my {self.phraser.words(self.world.entity(part.target.entity).plural)}"
                which[part.target.entity] = self.phraser.row(part.target, rng, owned=True)
            else:
                target_text = self.phraser.row(_elided(part.target, elide), rng, owned=part.owned)
        clause = self.phraser.action_clause(
            part.action, target_text, part.target.entity if part.target is not None else None, part.target_param
        )
        for name, other in part.others:
            text = self.phraser.row(other, rng, owned=self.world.is_owned(other.entity))
            link = phrasing.link_of(name)
            clause += f"{link} {text}" if link.startswith(",") else f" {link} {text}"
        if part.asked:
            for detail in part.details:
                details[_detail_key(detail, self.world.person.fields)] = _held(detail)
        return clause

    def detail_sentences(self, parts: list[Part], rng: random.Random) -> list[str]:
        return [
            self.phraser.detail_sentence(detail, rng) for part in parts if not part.asked for detail in part.details
        ]

    def task(self, draft: Draft, task_id: str) -> TaskSpec:
        instruction, requests, details, which = self.render(draft, self.rng("phrase", task_id))
        if any(text in instruction for text in which.values()):
            # Another request names the row this one leaves vague: it is no longer the user's to reveal.
            for part in draft.parts:
                part.vague = False
            instruction, requests, details, which = self.render(draft, self.rng("phrase", task_id))
        ok, _ = self.run(draft.oracle, draft.person)
        if not ok:
            raise RuntimeError(f"the oracle of {task_id} no longer succeeds")
        history = self.session.history()
        identity = None
        if draft.writes or draft.forbidden is not None:
            stated = [
                str(v) for v in [*draft.identity.stated.values(), *draft.identity.hidden.values()] if v is not None
            ]
            identity = IdentitySpec(entity=self.world.person.name, person=draft.person, stated=sorted(set(stated)))
        distractors = len(self.admitted - {call.name for call in draft.oracle})
        length = len(draft.oracle)
        band = (
            "easy"
            if length <= 2 and draft.writes <= 1 and not details
            else "medium"
            if length <= 4 and draft.writes <= 1 and not draft.policies
            else "hard"
        )
        keys = [key for part in [*draft.parts, *([draft.forbidden] if draft.forbidden else [])] for key in _keys(part)]
        return TaskSpec(
            id=task_id,
            kind=draft.kind,
            instruction=instruction,
            scenario=UserScenario(
                persona=draft.persona.name,
                person=draft.person,
                known={**draft.identity.stated, **({"record_ids": keys} if keys else {})},
                hidden=draft.identity.hidden,
                details=details,
                which=which,
                requests=requests,
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
            policies=draft.policies,
            domains=self.domains(draft),
            intent=draft.family,
            forbidden=draft.refused,
        )

    def sound(self, task: TaskSpec) -> bool:
        """Every oracle argument comes from the user or an earlier result."""
        _, results = self.run(task.oracle, task.scenario.person)
        return not provenance_violations(task, results, self.blueprint.clock.date(), self.rules_text)


def _reason(result: dict[str, Any]) -> str:
    error = result.get("error", {})
    return f"{error.get('code', 'error')}: {error.get('message', '')}".strip()


def _joined(first: Draft, second: Draft) -> Draft:
    """The two drafts' calls as one draft, to ask which domains they span together."""
    return Draft("write", first.person, first.persona, first.identity, [*first.oracle, *second.oracle], 2)


def _combinable(first: Part, second: Part) -> bool:
    """Two requests one message can carry: different actions, and no detail both would call by one name."""
    if first.action.name == second.action.name:
        return False
    return not {detail.name for detail in first.details} & {detail.name for detail in second.details}


def _merged(first: list[ToolCall], second: list[ToolCall]) -> list[ToolCall]:
    return [*first, *(call for call in second if call not in first)]


def _root(description: Description) -> Description:
    while description.parent is not None:
        description = description.parent
    return description


def _subject(parts: list[Part]) -> Description | None:
    """The row two requests are both about (the order whose line and address change), if they share one."""
    roots = [_root(part.target) if part.target is not None else None for part in parts]
    if len(roots) == 2 and roots[0] is not None and roots[0] == roots[1] and not any(part.vague for part in parts):
        return roots[0]
    return None


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


def _keys(part: Part) -> list[str]:
    keys = part.target.record_keys() if part.target is not None else []
    return keys + [key for _, other in part.others for key in other.record_keys()]


def _detail_key(detail: Detail, person_fields: list[Any]) -> str:
    """The detail's name as the user holds it; `new_email` where the user's own email is another thing."""
    names = {f.name for f in person_fields}
    return f"new_{detail.name}" if detail.new and detail.name in names else detail.name


def _held(detail: Detail) -> Any:
    """A detail as the user holds it: an enum value in words (`found cheaper`), anything else as stored."""
    return wording.words(detail.value) if detail.kind == "enum" and isinstance(detail.value, str) else detail.value


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
        key = canonical_json([[call.model_dump() for call in draft.oracle], draft.family, draft.question])
        if key not in seen:
            seen.add(key)
            unique.append(draft)
    return unique


def _balanced(drafts: list[Draft]) -> list[Draft]:
    """Round-robin over intents, so no one action fills the set."""
    by_family: dict[str, list[Draft]] = {}
    for draft in drafts:
        by_family.setdefault(draft.family, []).append(draft)
    queues = list(by_family.values())
    return [draft for group in itertools.zip_longest(*queues) for draft in group if draft is not None]


def _crossing_first(crosses: Callable[[Draft], bool], drafts: list[Draft], *, alternate: bool) -> list[Draft]:
    """A fused world's drafts, cross-domain ones first: all of them among multi-writes, every other place among
    single writes (bridges) and policy tasks (refusals beside a write), so those still vary and the offers a
    policy makes, which sit in one domain, stay in the mix.
    Read questions stay in one domain, so this is what makes a third or more of the tasks cross domains."""
    crossing = [draft for draft in drafts if crosses(draft)]
    chosen = {id(draft) for draft in crossing}
    single = [draft for draft in drafts if id(draft) not in chosen]
    if not alternate:
        return crossing + single
    return [draft for pair in itertools.zip_longest(crossing, single) for draft in pair if draft is not None]


def _cross_up(crosses: Callable[[Draft], bool], picked: dict[str, list[Draft]], spare: list[Draft]) -> None:
    """Swap single-domain drafts of the kinds that have most for spare cross-domain ones until CROSS_SHARE of the
    picked drafts cross domains (or no spare one is left): the acceptance floor of a fused package is 30%, and
    the gate drops a few."""
    total = sum(map(len, picked.values()))
    have = sum(crosses(draft) for drafts in picked.values() for draft in drafts)
    spares = [draft for draft in spare if crosses(draft)]
    while have < CROSS_SHARE * total and spares:
        kind = max(picked, key=lambda name: sum(not crosses(d) and not d.offered for d in picked[name]))
        # An offer (a policy's alternative, accepted) is in one domain by nature, and the only kind of its lesson.
        single = [index for index, draft in enumerate(picked[kind]) if not crosses(draft) and not draft.offered]
        if not single:
            break
        picked[kind][single[-1]] = spares.pop(0)
        have += 1
    for kind, drafts in picked.items():
        picked[kind] = _spread(crosses, drafts)


def _spread(crosses: Callable[[Draft], bool], drafts: list[Draft]) -> list[Draft]:
    """The drafts with the cross-domain ones evenly among the rest, so that a gate stopping early (at the
    requested count, of a spare-padded list) keeps their share."""
    crossing = [draft for draft in drafts if crosses(draft)]
    single = [draft for draft in drafts if not crosses(draft)]
    placed = [
        ((index + 0.5) / len(group), order, draft)
        for order, group in enumerate((crossing, single))
        for index, draft in enumerate(group)
    ]
    return [draft for _, _, draft in sorted(placed, key=lambda item: (item[0], item[1]))]


@dataclass
class Synthesis:
    tasks: list[TaskSpec]
    found: dict[str, int]
    unreached: dict[str, str]
    """WRITE actions no candidate task uses -> the most common reason their attempts failed."""


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
) -> Synthesis:
    """Up to `count` distinct tasks in the mix of `QUOTAS`, how many drafts of each kind were found, and why
    actions no task uses were missed. `session_type` plays the oracles (`envforge bench` passes one that resets
    the old way, as its baseline)."""
    synthesizer = Synthesizer(blueprint, ontology, graph, template, admitted, seed, session_type)
    persons = sorted(synthesizer.world.rows[ontology.person])
    random.Random(hash_json([seed, "persons"])).shuffle(persons)
    singles: list[Draft] = []
    for action in blueprint.actions:
        if action.name in admitted:
            singles.extend(synthesizer.single_writes(action, persons[:PERSONS_PER_ACTION]))
        else:
            synthesizer.failures[action.name]["the tool tests did not admit it"] += 1
    singles = _balanced(_dedupe(singles))
    quota: dict[str, int] = {kind: round(count * share) for kind, share in QUOTAS.items()}
    multis = _dedupe(synthesizer.multi_writes(singles, quota["multi_write"] * 2))
    policy = _balanced(_dedupe([*synthesizer.offers, *synthesizer.refusals(singles, quota["policy"] * 2)]))
    reads = _balanced(_dedupe(synthesizer.reads(persons * 3, quota["read"] * 2)))
    pools: dict[str, list[Draft]] = {"write": singles, "multi_write": multis, "policy": policy, "read": reads}
    if blueprint.composed_of:
        pools = {
            kind: _crossing_first(synthesizer.crosses, pool, alternate=kind in ("write", "policy"))
            for kind, pool in pools.items()
        }
    picked = {kind: pool[: quota[kind]] for kind, pool in pools.items()}
    rests = [pool[quota[kind] :] for kind, pool in pools.items()]
    leftovers = [draft for group in itertools.zip_longest(*rests) for draft in group if draft is not None]
    picked["write"] = [*picked["write"], *leftovers[: max(0, count - sum(map(len, picked.values())))]]
    if blueprint.composed_of:
        taken = {id(draft) for draft in picked["write"]}
        _cross_up(synthesizer.crosses, picked, [draft for draft in leftovers if id(draft) not in taken])
    # Interleave kinds in proportion, so a gate that stops at the requested count keeps the mix.
    ranked = [
        (index / len(drafts), order, draft)
        for order, drafts in enumerate(picked.values())
        for index, draft in enumerate(drafts)
    ]
    chosen = [draft for _, _, draft in sorted(ranked, key=lambda item: (item[0], item[1]))]
    tasks: list[TaskSpec] = []
    unsound: Counter[str] = Counter()
    for draft in chosen:
        if len(tasks) >= count:
            break
        task = synthesizer.task(draft, f"{blueprint.domain}-{len(tasks) + 1:04d}")
        if synthesizer.sound(task):
            tasks.append(task)
        else:
            unsound.update({call.name for call in task.oracle})
    found = {kind: len(pool) for kind, pool in pools.items()}
    used = {call.name for task in tasks for call in task.oracle}
    drafted = Counter(call.name for pool in pools.values() for draft in pool for call in draft.oracle)
    unreached = {}
    for action in blueprint.actions:
        if action.name in used:
            continue
        if unsound[action.name]:
            reason = f"{unsound[action.name]} candidate tasks used a value the agent could not have (provenance)"
        elif drafted[action.name]:
            reason = f"{drafted[action.name]} candidate tasks, none drawn into the mix; ask for more tasks"
        else:
            failures = synthesizer.failures[action.name].most_common(1)
            reason = failures[0][0] if failures else "no attempt was made"
        unreached[action.name] = reason
    return Synthesis(tasks, found, unreached)

"""What every kind of task drafts from: the seeded world, a session to play chains on, the users in a seeded
order, and what the drafting so far has learned."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from faker import Faker

from envforge.hashing import canonical_json, hash_json
from envforge.ir.blueprint import Blueprint, PersonaSpec
from envforge.ir.compose import domains_of_calls, plain_names, tool_domains
from envforge.ir.ontology import Ontology
from envforge.ir.tasks import ToolCall
from envforge.ir.toolspec import ToolGraph
from envforge.runtime.claims.told import action_names
from envforge.runtime.claims.vocabulary import vocabulary_of
from envforge.runtime.environment import Environment
from envforge.runtime.session import Session
from envforge.stages.tasks.drafts import Draft
from envforge.stages.tasks.personas import PersonaCast
from envforge.stages.tasks.phrasing import Phraser
from envforge.stages.tasks.world import World


class SynthesisContext:
    """One package's synthesis: shared by the kinds of task, which draft from it in the registry's order."""

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
        self.session = session_type(Environment(blueprint, graph, template, ""))
        self.world = World(ontology, graph, self.session)
        self.phraser = Phraser(ontology, blueprint.clock.date(), plain_names(blueprint))
        self.tool_domains = tool_domains(blueprint) if blueprint.composed_of else {}
        """In a fused world, each tool's member domains, computed once for the many drafts asked about."""
        self.admitted = admitted
        self.seed = seed
        self.faker = Faker("en_US")
        self.faker.seed_instance(hash_json([seed, "tasks"]))
        self.cast = PersonaCast(blueprint, self.world.rows, seed)
        persons = sorted(self.world.rows[ontology.person])
        random.Random(hash_json([seed, "persons"])).shuffle(persons)
        self.persons = self.cast.players(persons)
        """The users some persona fits, in a seeded order: the first few are asked for writes, all of them
        questions."""
        self.accumulative = {action.name for action in blueprint.actions if action.accumulative}
        self.failures: dict[str, Counter[str]] = {action.name: Counter() for action in blueprint.actions}
        """Why attempts at each action failed: the report's reason for an action no task reaches."""
        self.forbidden: list[Draft] = []
        """Requests a policy forbids, met while drafting single writes: refusals ask them beside allowed ones."""
        self.offers: list[Draft] = []
        """Requests a policy answers with an offer the user accepts, met while drafting single writes."""
        self.allowances: list[Draft] = []
        """Allowed requests a policy weighs on two or more conditions at once, met while drafting single writes."""
        self.met: set[tuple[str, tuple[str, ...]]] = set()
        """The kinds of policy task met so far (family, conditions): single writes try on for a new one."""
        self.paired: Counter[str] = Counter()
        """Policy -> forbidden requests breaking it that refusals tried to ask beside an allowed one."""
        self.rules = {policy.id for policy in blueprint.policies if policy.actions}
        """Business rules on requests; entity invariants guard the data, and no user asks to break them."""
        self.governed = {name for policy in blueprint.policies for name in policy.actions or []}
        self.rules_text = [policy.text for policy in blueprint.policies]
        self.policy_text = {policy.id: policy.text.strip() for policy in blueprint.policies}
        self.vocabulary = vocabulary_of(blueprint)
        self.person_words = {ontology.person, f"{ontology.person}s"}
        self._read: dict[tuple[str, str, str], tuple[bool, dict[str, Any]]] = {}
        """(person, tool, arguments) -> what a read made for the person at the template returned."""
        self._reset_at = -1
        """The connection's count of changed rows when this context last reset the session (-1: never)."""

    def cues(self, action: str) -> list[str]:
        """The words that name `action` (`cancel`, `cancellation`, `order`), less those naming the user: what a
        refusal of it says."""
        return sorted(action_names(self.vocabulary, action) - self.person_words)

    def rng(self, *parts: Any) -> random.Random:
        return random.Random(hash_json([self.seed, *parts]))

    def persona_of(self, person: str) -> PersonaSpec:
        return self.cast.persona_of(person)

    def run(self, calls: list[ToolCall], person: str) -> tuple[bool, list[dict[str, Any]]]:
        """Play `calls` from the template, acting for `person`; stops at the first refused call."""
        self._to_template(person)
        return self.play_on(calls)

    def look_up(self, calls: list[ToolCall], person: str) -> tuple[bool, list[dict[str, Any]]]:
        """`run` for READ calls, played for what they return and to leave the session at the template for `person`
        ready for a write (reads change no row): a read made before for the person is not made again, so the
        history may hold none of them."""
        self._to_template(person)
        results: list[dict[str, Any]] = []
        for call in calls:
            asked = (person, call.name, canonical_json(call.arguments))
            known = self._read.get(asked)
            if known is None:
                known = self._read[asked] = self.session.call_tool(call.name, call.arguments)
            ok, result = known
            results.append(result)
            if not ok:
                return False, results
        return True, results

    def _to_template(self, person: str) -> None:
        """The session at the template with an empty history, acting for `person`. Every call that writes a row or
        is logged changes rows of the connection, so a session in which none changed since the last reset here is
        there already: most attempts at a write are told refused without a call, and their next reset is free."""
        if self.session.connection.total_changes != self._reset_at:
            self.session.reset()
            self._reset_at = self.session.connection.total_changes
        self.session.act_for(person)

    def play_on(self, calls: list[ToolCall]) -> tuple[bool, list[dict[str, Any]]]:
        """Play `calls` after what the session played last, for the same person (`run` without its reset); stops
        at the first refused call."""
        results: list[dict[str, Any]] = []
        for call in calls:
            ok, result = self.session.call_tool(call.name, call.arguments)
            if not ok:
                results.append(result)
                return False, results
            results.append(result)
        return True, results

    def refusal(self, call: ToolCall) -> dict[str, Any] | None:
        """What playing the WRITE `call` next would return where the runtime refuses it before its effects (an
        argument, an owner, a row, a precondition, a policy), found without playing it: the same `{"error": ...}`.
        None where the call would go on to its effects, and where the check itself fails (a bug, which playing
        the call reports as it always has)."""
        try:
            error = self.session.dispatcher.refusal(call.name, call.arguments)
        except Exception:
            return None
        return None if error is None else error.to_dict()

    def refused_outright(self, call: ToolCall, person: str) -> dict[str, Any] | None:
        """The runtime's refusal of the WRITE `call` made for `person` at the template, where no kind of task keeps
        the request: not one a policy answers with an offer, nor one a business rule forbids. None otherwise."""
        self._to_template(person)
        refused = self.refusal(call)
        if refused is None or refused["error"].get("policy") in self.rules:
            return None
        return None if self.session.offer(call.name, call.arguments) is not None else refused

    def domains(self, draft: Draft) -> list[str]:
        """The member domains a draft works in (none outside a fused world)."""
        return domains_of_calls(self.tool_domains, [*draft.oracle, *draft.refused])

    def crosses(self, draft: Draft) -> bool:
        return len(self.domains(draft)) > 1

    def bridges(self, draft: Draft) -> bool:
        """Whether the draft calls a bridge: an action whose things lie in two member domains."""
        return any(len(self.tool_domains.get(call.name, ())) > 1 for call in draft.oracle)

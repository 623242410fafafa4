"""Fusion: one blueprint built from 2-3 domain blueprints, with the same person in each.

Every name of a member is namespaced by its prefix (`bank_account`, `freeze_bank_card`), so same-named
entities and actions of two domains never collide. The first domain's person entity is the person the agent
serves; each other domain's person entity gets a one-to-one link to it and copies the identity field (and the
other personal text fields they share, such as names) through that link, so one human has a record in every
domain and is found in each by the same email. Bridge actions and their policies, declared in the
composition, act across domains; ownership runs through the link, so a bridge can only move one person's
things.
"""

from __future__ import annotations

import io
import tokenize
from collections import Counter
from datetime import datetime
from typing import Any

from pydantic import Field

from envforge.errors import UserInputError
from envforge.ir.base import IRModel
from envforge.ir.blueprint import (
    ActionSpec,
    Blueprint,
    ComposedDomain,
    EntitySpec,
    FieldSpec,
    InsertEffect,
    PersonaSpec,
    PolicySpec,
    RelationSpec,
    ValueGenerator,
)
from envforge.ir.naming import read_tool_names
from envforge.ir.syntax import Identifier
from envforge.ir.tasks import ToolCall

MAX_DOMAINS = 3
MAX_NAME = 63
"""The longest name an Identifier takes; a prefix makes every name longer."""
PARTICLES = frozenset({"in", "out", "up", "off", "on", "back", "over"})
"""Words that belong to the verb of an action name (`check_in`): the prefix goes after them."""
IDENTITY_TYPES = ("string", "text")
"""Types an identity field may have: what a person says about themselves (an email, a phone number)."""
COPIED_TYPES = (*IDENTITY_TYPES, "date")
"""Personal fields a linked person record copies from the first domain's when both have them (names, email,
phone, date of birth), so one human reads the same in every domain."""


class MemberSpec(IRModel):
    """One domain of a composition."""

    blueprint: str = Field(min_length=1)
    """A blueprint file, relative to the composition's file, or a shipped name such as `clinic`."""
    prefix: Identifier | None = None
    """What the domain's names are namespaced with; defaults to its domain id. Keep it short and a word a user
    would say (`bank`): it appears in tool names and in how tasks name things (`my bank card`)."""


class ComposeSpec(IRModel):
    """How the domains are fused."""

    domains: list[MemberSpec] = Field(min_length=2, max_length=MAX_DOMAINS)
    """The member blueprints, 2 or 3. The first one's person entity is the user the agent serves."""
    identity: Identifier
    """A unique field of every member's person entity that names the same human in each (e.g. `email`)."""
    bridges: list[ActionSpec] = Field(default_factory=list)
    """Actions across domains, written with the fused names (`clinic_invoice`, `bank_account`): paying a
    clinic bill from a bank account."""
    policies: list[PolicySpec] = Field(default_factory=list)
    """Rules for the bridges (the members' own policies are kept), with the fused names."""


class Composition(IRModel):
    """A blueprint made of other blueprints: the `compose:` form."""

    schema_version: int = 1
    domain: Identifier
    """Domain id of the fused environment."""
    version: int = Field(default=0, ge=0)
    title: str
    description: str
    """What the fused world is, for people and for the agent."""
    clock: datetime | None = None
    """The fused environment's clock; defaults to the first domain's."""
    agent_instructions: str = ""
    """Opening text of the agent's policy; each domain's own instructions follow it under its title."""
    compose: ComposeSpec


class CompositionError(UserInputError, ValueError):
    """A composition that cannot be fused; `path` is where in the composition it went wrong."""

    def __init__(self, message: str, path: tuple[int | str, ...] = ()) -> None:
        super().__init__(message)
        self.path = path


def rename_names(expression: str, names: dict[str, str]) -> str:
    """The expression with bare names (not attributes) renamed, spacing and everything else kept."""
    if not names:
        return expression
    starts = [0]
    for line in expression.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    out: list[str] = []
    last = 0
    previous = ""
    for token in tokenize.generate_tokens(io.StringIO(expression).readline):
        if token.type == tokenize.NAME and token.string in names and previous != ".":
            begin = starts[token.start[0] - 1] + token.start[1]
            out += [expression[last:begin], names[token.string]]
            last = begin + len(token.string)
        if token.type not in (tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT):
            previous = token.string
    return "".join(out) + expression[last:]


def _fitting(name: str, domain: str, index: int) -> str:
    """`name`, or a CompositionError where the prefix made it longer than a name may be."""
    if len(name) > MAX_NAME:
        raise CompositionError(
            f"the fused name '{name}' is longer than {MAX_NAME} characters; give {domain} a shorter prefix",
            ("compose", "domains", index, "prefix"),
        )
    return name


class _Namespace:
    """The fused names of one member's declarations."""

    def __init__(self, blueprint: Blueprint, prefix: str, index: int) -> None:
        self.blueprint = blueprint
        self.prefix = prefix
        self.index = index
        self.entities = {entity.name: self.name(entity.name) for entity in blueprint.entities}

    def name(self, name: str) -> str:
        return _fitting(f"{self.prefix}_{name}", self.blueprint.domain, self.index)

    def action(self, name: str) -> str:
        """The prefix goes after the verb (and a particle), so the tool still reads as a request and like the
        READ tools: `freeze_bank_card` next to `list_bank_cards`, `check_in_airline`."""
        words = name.split("_")
        cut = 2 if len(words) > 1 and words[1] in PARTICLES else 1
        return _fitting("_".join([*words[:cut], self.prefix, *words[cut:]]), self.blueprint.domain, self.index)

    def rows_named(self, entities: list[str], aliases: set[str]) -> dict[str, str]:
        """Renames for the entity names an expression sees rows under, except where an alias shadows one."""
        return {name: self.entities[name] for name in entities if name in self.entities and name not in aliases}

    def renamed(self) -> Blueprint:
        return self.blueprint.model_copy(
            update={
                "entities": [self._entity(entity) for entity in self.blueprint.entities],
                "relations": [self._relation(relation) for relation in self.blueprint.relations],
                "actions": [self._action(action) for action in self.blueprint.actions],
                "policies": [self._policy(policy) for policy in self.blueprint.policies],
                "invariants": [self._invariant(invariant) for invariant in self.blueprint.invariants],
                "personas": [self._persona(persona) for persona in self.blueprint.personas],
                "person": self.entities[self.blueprint.person],
            }
        )

    def _entity(self, entity: EntitySpec) -> EntitySpec:
        return entity.model_copy(
            update={
                "name": self.entities[entity.name],
                "plural": self.name(entity.plural) if entity.plural else None,
                "owner": self.name(entity.owner) if entity.owner else None,
            }
        )

    def _relation(self, relation: RelationSpec) -> RelationSpec:
        return relation.model_copy(
            update={
                "name": self.name(relation.name),
                "child": self.entities[relation.child],
                "parent": self.entities[relation.parent],
            }
        )

    def _action(self, action: ActionSpec) -> ActionSpec:
        data = action.model_dump(mode="json")
        data["name"] = self.action(action.name)
        data["entity"] = self.entities[action.entity]
        for param in data["params"]:
            if param.get("ref"):
                param["ref"] = self.entities[param["ref"]]
        for binding in data["bind"]:
            binding["entity"] = self.entities[binding["entity"]]
        for effect in data["effects"]:
            if "insert" in effect:
                effect["insert"] = self.entities[effect["insert"]]
            if "delete" in effect and effect.get("where") is not None:
                effect["delete"] = self.entities[effect["delete"]]
        return ActionSpec.model_validate(data)

    def _policy(self, policy: PolicySpec) -> PolicySpec:
        update: dict[str, Any] = {"id": self.name(policy.id)}
        if policy.actions is not None:
            update["actions"] = [self.action(name) for name in policy.actions]
        if policy.instead_action is not None:
            update["instead_action"] = self.action(policy.instead_action)
        if policy.entity is not None:
            # An entity-scoped rule sees the changed row under its entity's name.
            update["entity"] = self.entities[policy.entity]
            update["require"] = rename_names(policy.require, self.rows_named([policy.entity], set()))
        return policy.model_copy(update=update)

    def _persona(self, persona: PersonaSpec) -> PersonaSpec:
        update: dict[str, Any] = {"name": self.name(persona.name)}
        if persona.fits is not None:
            # The condition reads this domain's person row, which the fused world knows by its fused name.
            update["fits"] = rename_names(persona.fits, self.rows_named([self.blueprint.person], set()))
        return persona.model_copy(update=update)

    def relation_child(self, name: str) -> str:
        return next(relation.child for relation in self.blueprint.relations if relation.name == name)

    def _invariant(self, invariant: Any) -> Any:
        data = invariant.model_dump(mode="json")
        seen = [invariant.entity]
        if data.get("over"):
            seen.append(self.relation_child(data["over"]))
            data["over"] = self.name(data["over"])
        aliases = set(data.get("parents", {})) | set(data.get("children", {}))
        for total in data.get("totals", {}).values():
            seen += [self.relation_child(name) for name in total["over"].split(".")[1:]]
        names = self.rows_named(seen, aliases)
        data["id"] = self.name(invariant.id)
        data["entity"] = self.entities[invariant.entity]
        if "children" in data:
            data["children"] = {alias: self.name(relation) for alias, relation in data["children"].items()}
        for total in data.get("totals", {}).values():
            alias, *relations = total["over"].split(".")
            total["over"] = ".".join([names.get(alias, alias), *(self.name(relation) for relation in relations)])
            for key in ("of", "where"):
                if total.get(key) is not None:
                    total[key] = rename_names(total[key], names)
        for key, value in data.items():
            if key in ("value", "of", "where", "when", "require") and isinstance(value, str):
                data[key] = rename_names(value, names)
            elif key in ("not_before", "not_after"):
                data[key] = [rename_names(bound, names) for bound in value]
        return type(invariant).model_validate(data)


def _identity_fields(person: EntitySpec) -> set[str]:
    return {field.name for field in person.fields if field.unique and field.type in IDENTITY_TYPES}


def shared_identity(members: list[Blueprint]) -> list[str]:
    """Unique text fields every member's person entity has, `email` first: candidates for `identity`."""
    common = set.intersection(*(_identity_fields(member.entity(member.person)) for member in members))
    return sorted(common, key=lambda name: (name != "email", name))


def _check_identity(members: list[Blueprint], identity: str) -> None:
    for member in members:
        person = member.entity(member.person)
        field = next((field for field in person.fields if field.name == identity), None)
        if field is None or not field.unique or field.type not in IDENTITY_TYPES:
            found = shared_identity(members)
            if field is None:
                what = f"has no field '{identity}'"
            elif field.type not in IDENTITY_TYPES:
                what = f"has '{identity}', but it is of type {field.type}, not text"
            else:
                what = f"has '{identity}', but it is not unique"
            if found:
                fix = f"use one every person entity has: {', '.join(found)}"
            elif field is not None and field.type in IDENTITY_TYPES:
                fix = f"mark it unique: true in {member.domain}'s blueprint"
            else:
                fix = "give every person entity the same unique text field (e.g. email) first"
            raise CompositionError(
                f"no shared person identity: {member.domain}'s person entity '{person.name}' {what}; {fix}",
                ("compose", "identity"),
            )


def _link_field(person: EntitySpec, primary: EntitySpec, domain: str, index: int) -> str:
    """The name of a later domain's link to the first domain's person: the first's key (`patient_id`), or where
    the later person has a field of that name, as both have where each calls its person a customer, the first's
    fused name (`retail_customer_id`)."""
    key = next(field.name for field in primary.fields if field.type == "id")
    taken = {field.name for field in person.fields}
    if key not in taken:
        return key
    if f"{primary.name}_id" not in taken and len(primary.name) + 3 <= MAX_NAME:
        return f"{primary.name}_id"
    raise CompositionError(
        f"{domain}'s person entity '{person.name}' already has a field '{key}', the name of the link to "
        f"'{primary.name}'; rename that field in {domain}'s blueprint",
        ("compose", "domains", index),
    )


def _link(person: EntitySpec, primary: EntitySpec, domain: str, link_field: str, identity: str) -> EntitySpec:
    """The person entity of a later domain, linked one-to-one to the first domain's and copying its identity."""
    theirs = {field.name: field for field in primary.fields}
    fields = []
    for field in person.fields:
        source = theirs.get(field.name)
        copyable = (
            source is not None
            and field.type in COPIED_TYPES
            and source.type == field.type
            and (source.unique or not field.unique)
            and (field.max_length is None or (source.max_length or field.max_length + 1) <= field.max_length)
        )
        if copyable:
            fields.append(
                field.model_copy(update={"generator": ValueGenerator(copy_from=f"{link_field}.{field.name}")})
            )
            continue
        if field.name == identity:
            raise CompositionError(
                f"{domain}'s '{person.name}.{identity}' cannot hold every value of '{primary.name}.{identity}' "
                "(its type, uniqueness or max_length differ); make the two fields alike",
                ("compose", "identity"),
            )
        fields.append(field)
    link = FieldSpec(
        name=link_field,
        type="ref",
        description=f"The same person's {primary.name.replace('_', ' ')} record.",
    )
    return person.model_copy(update={"fields": [fields[0], link, *fields[1:]], "rows": primary.rows})


def _instructions(composition: Composition, members: list[Blueprint]) -> str:
    parts = [composition.agent_instructions.strip()] if composition.agent_instructions.strip() else []
    for member in members:
        text = " ".join(member.agent_instructions.split()) or member.description
        parts.append(f"{member.title}: {text}")
    return "\n\n".join(parts)


Source = tuple[str, tuple[int | str, ...]]
"""Where a fused name comes from: a member domain or the bridges, and the path to change to rename it."""


def _duplicates(kind: str, names: list[tuple[str, Source]]) -> None:
    """A CompositionError for the first name two sources share, at the later source."""
    counts = Counter(name for name, _ in names)
    for name, count in counts.items():
        if count == 1:
            continue
        sources = [source for other, source in names if other == name]
        who = list(dict.fromkeys(owner for owner, _ in sources))
        path = sources[-1][1]
        if who == ["the bridges"]:
            raise CompositionError(f"two bridges are named '{name}'; rename one of them", path)
        bridge = " or rename the bridge" if "the bridges" in who else ""
        raise CompositionError(
            f"the {kind} name '{name}' comes from both {' and '.join(who)}; give one of them another prefix{bridge}",
            path,
        )


def fuse(composition: Composition, members: list[Blueprint]) -> Blueprint:
    """The fused blueprint of `members` (loaded in the composition's order); CompositionError if they cannot be."""
    prefixes = [spec.prefix or member.domain for spec, member in zip(composition.compose.domains, members, strict=True)]
    for index, prefix in enumerate(prefixes):
        if prefixes.index(prefix) != index:
            raise CompositionError(
                f"two domains are namespaced '{prefix}'; give each domain its own prefix",
                ("compose", "domains", index, "prefix"),
            )
    for index, member in enumerate(members):
        if member.composed_of:
            raise CompositionError(
                f"'{member.domain}' is itself fused; list its domains here instead (at most {MAX_DOMAINS})",
                ("compose", "domains", index, "blueprint"),
            )
    _check_identity(members, composition.compose.identity)
    spaces = [
        _Namespace(member, prefix, index) for index, (member, prefix) in enumerate(zip(members, prefixes, strict=True))
    ]
    renamed = [space.renamed() for space in spaces]
    primary = renamed[0].entity(renamed[0].person)
    entities: list[EntitySpec] = []
    relations: list[RelationSpec] = []
    for index, (member, blueprint) in enumerate(zip(members, renamed, strict=True)):
        for declared in blueprint.entities:
            entity = declared
            if declared.name == blueprint.person and index > 0:
                link_field = _link_field(declared, primary, member.domain, index)
                entity = _link(declared, primary, member.domain, link_field, composition.compose.identity)
                relations.append(
                    RelationSpec(
                        name=_fitting(f"{entity.name}_person", member.domain, index),
                        child=entity.name,
                        field=link_field,
                        parent=primary.name,
                        cardinality="one_to_one",
                        description=f"The same person at {members[0].title}.",
                    )
                )
            entities.append(entity)
        relations.extend(blueprint.relations)
    person_fields = {field.name for field in primary.fields}
    personas = [
        persona.model_copy(update={"knows": [name for name in persona.knows if name in person_fields]})
        for blueprint in renamed
        for persona in blueprint.personas
    ]
    bridges = composition.compose.bridges
    actions = [action for blueprint in renamed for action in blueprint.actions] + list(bridges)
    named: list[tuple[Blueprint, Source]] = [
        (blueprint, (member.domain, ("compose", "domains", index, "prefix")))
        for index, (member, blueprint) in enumerate(zip(members, renamed, strict=True))
    ]
    bridged: list[tuple[str, Source]] = [
        (action.name, ("the bridges", ("compose", "bridges", index, "name"))) for index, action in enumerate(bridges)
    ]
    _duplicates("entity", [(entity.name, source) for blueprint, source in named for entity in blueprint.entities])
    _duplicates(
        "action", [(action.name, source) for blueprint, source in named for action in blueprint.actions] + bridged
    )
    return Blueprint(
        domain=composition.domain,
        version=composition.version,
        title=composition.title,
        description=composition.description,
        clock=composition.clock or members[0].clock,
        person=primary.name,
        entities=entities,
        relations=relations,
        actions=actions,
        policies=[policy for blueprint in renamed for policy in blueprint.policies]
        + list(composition.compose.policies),
        invariants=[invariant for blueprint in renamed for invariant in blueprint.invariants],
        personas=personas,
        authentication=members[0].authentication,
        agent_instructions=_instructions(composition, members),
        composed_of=[
            ComposedDomain(
                domain=member.domain,
                prefix=prefix,
                title=member.title,
                person=blueprint.person,
                entities=[entity.name for entity in blueprint.entities],
                actions=[action.name for action in blueprint.actions],
            )
            for member, prefix, blueprint in zip(members, prefixes, renamed, strict=True)
        ],
    )


def plain_names(blueprint: Blueprint) -> dict[str, str]:
    """Fused entity, plural and action names -> how people say them, without the prefix where no other domain
    has the same word: `bank_card` is just a card, but `bank_customer` stays one where the shop has customers."""
    if not blueprint.composed_of:
        return {}
    spoken: dict[str, str] = {}
    for kind in ("entity", "plural", "action"):
        bases: dict[str, str] = {}
        for part in blueprint.composed_of:
            names = part.actions if kind == "action" else part.entities
            if kind == "plural":
                names = [blueprint.entity(name).plural or f"{name}s" for name in names]
            bases |= {name: _unprefixed(name, part.prefix, action=kind == "action") for name in names}
        counts = Counter(bases.values())
        spoken |= {name: base for name, base in bases.items() if counts[base] == 1}
    members = {name for part in blueprint.composed_of for name in part.actions}
    for action in blueprint.actions:
        if action.name not in members:
            # A bridge is said as its verb and what it acts on ("pay the invoice ..., using my checking account");
            # its tool name keeps the rest, which tells it apart from the member's own action.
            spoken[action.name] = f"{action.name.partition('_')[0]}_{spoken.get(action.entity, action.entity)}"
    return spoken


def _unprefixed(name: str, prefix: str, *, action: bool) -> str:
    if not action:
        return name.removeprefix(f"{prefix}_")
    return "_".join(word for word in name.split("_") if word != prefix)


def tool_domains(blueprint: Blueprint) -> dict[str, frozenset[str]]:
    """Each tool of a fused blueprint -> the member domains whose things it reads or changes, apart from the
    person records (every domain has one). A bridge action has two domains; tools of the person alone, none."""
    persons = {blueprint.person, *blueprint.linked_persons}

    def domains(entities: set[str]) -> frozenset[str]:
        return frozenset(d for d in (blueprint.domain_of(e) for e in entities - persons) if d is not None)

    found = {tool: domains({entity}) for tool, entity in read_tool_names(blueprint).items()}
    for action in blueprint.actions:
        entities = {action.entity, *(binding.entity for binding in action.bind)}
        entities |= {param.ref for param in action.params if param.ref is not None}
        entities |= {effect.insert for effect in action.effects if isinstance(effect, InsertEffect)}
        found[action.name] = domains(entities)
    return found


def task_domains(blueprint: Blueprint, calls: list[ToolCall]) -> list[str]:
    """The member domains a task's calls work in (sorted); two or more make it a cross-domain task."""
    if not blueprint.composed_of:
        return []
    return domains_of_calls(tool_domains(blueprint), calls)


def domains_of_calls(by_tool: dict[str, frozenset[str]], calls: list[ToolCall]) -> list[str]:
    """`task_domains` with `tool_domains` computed once by the caller, for code that asks of many tasks."""
    return sorted({domain for call in calls for domain in by_tool.get(call.name, frozenset())})

"""Semantic checks of a blueprint: names resolve, keys are consistent, data can be seeded."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, NoReturn, assert_never

from envforge.errors import did_you_mean
from envforge.ir.blueprint import (
    NAME_FIELDS,
    ActionSpec,
    Blueprint,
    DecrementEffect,
    DeleteEffect,
    EffectSpec,
    EntitySpec,
    IncrementEffect,
    InsertEffect,
    ParamSpec,
    UpdateEffect,
)
from envforge.ir.catalogue_checks import check_catalogues
from envforge.ir.check_context import CheckContext, listed
from envforge.ir.expression_checks import CLOCK_NAMES, ExpressionChecks, Scope
from envforge.ir.graphs import ordered_by_edges, reached_from
from envforge.ir.invariant_checks import check_invariants
from envforge.ir.locations import Locations, Path_
from envforge.ir.naming import read_tool_names
from envforge.ir.ownership import OwnershipError, owner_paths

if TYPE_CHECKING:
    import networkx as nx

NUMERIC_TYPES = frozenset({"integer", "number", "money"})


class Checker(CheckContext):
    """Checks one blueprint, on the first inconsistency raising an error located in its source."""

    def __init__(self, blueprint: Blueprint, locations: Locations) -> None:
        super().__init__(blueprint, locations)
        self.expressions = ExpressionChecks(self)

    def expression(self, source: str, path: Path_, scope: Scope, params: Sequence[ParamSpec]) -> None:
        """Check that every name the expression reads exists and that its parts' types meet. `scope` maps aliases
        to entities."""
        self.expressions.expression(source, path, scope, params)

    def run(self) -> None:
        blueprint = self.blueprint
        self.unique([entity.name for entity in blueprint.entities], ("entities",), "name", "entity")
        for index, entity in enumerate(blueprint.entities):
            self.check_entity(entity, ("entities", index))
        self.entity(blueprint.person, ("person",))
        self.check_relations()
        self.check_connected()
        self.check_ownership()
        self.unique([action.name for action in blueprint.actions], ("actions",), "name", "action")
        reads = read_tool_names(blueprint)
        for index, action in enumerate(blueprint.actions):
            if action.name in reads:
                raise self.fail(
                    ("actions", index, "name"),
                    f"'{action.name}' is also a derived READ tool of entity '{reads[action.name]}'; rename the action",
                )
            self.check_action(action, ("actions", index))
        self.check_policies()
        check_invariants(self, self.expressions)
        check_catalogues(self)
        self.check_personas()
        self.check_authentication()

    def check_entity(self, entity: EntitySpec, path: Path_) -> None:
        self.unique([field.name for field in entity.fields], (*path, "fields"), "name", "field")
        keys = [field for field in entity.fields if field.type == "id"]
        if len(keys) != 1:
            raise self.fail(
                (*path, "fields"),
                f"entity '{entity.name}' needs exactly one field of type 'id', has {len(keys)}; "
                "give exactly one field 'type: id'",
            )
        for index, field in enumerate(entity.fields):
            where = (*path, "fields", index)
            if field.type == "enum" and not field.values:
                raise self.fail(where, f"enum field '{field.name}' needs 'values'; list the allowed values")
            generator = field.generator
            if (
                generator
                and generator.choices
                and generator.weights
                and len(generator.choices) != len(generator.weights)
            ):
                raise self.fail(
                    (*where, "generator", "weights"),
                    f"{len(generator.weights)} weights for {len(generator.choices)} choices; "
                    "give one weight per choice",
                )

    def check_relations(self) -> None:
        blueprint = self.blueprint
        self.unique([relation.name for relation in blueprint.relations], ("relations",), "name", "relation")
        used: dict[tuple[str, str], str] = {}
        required: dict[tuple[str, str], int] = {}
        for index, relation in enumerate(blueprint.relations):
            path: Path_ = ("relations", index)
            child = self.entity(relation.child, (*path, "child"))
            self.entity(relation.parent, (*path, "parent"))
            self.field(child, relation.field, (*path, "field"))
            field = next(field for field in child.fields if field.name == relation.field)
            if field.type != "ref":
                refs = [field.name for field in child.fields if field.type == "ref"]
                hint = did_you_mean(field.name, refs) or (
                    f"; name one of its ref fields ({listed(refs)}) or make '{field.name}' 'type: ref'"
                    if refs
                    else f"; make '{field.name}' 'type: ref'"
                )
                raise self.fail(
                    (*path, "field"),
                    f"field '{child.name}.{field.name}' has type '{field.type}', but a relation needs a 'ref' field{hint}",
                )
            if (child.name, field.name) in used:
                raise self.fail(
                    (*path, "field"),
                    f"field '{child.name}.{field.name}' is already the key of relation "
                    f"'{used[(child.name, field.name)]}'; give each relation its own ref field",
                )
            used[(child.name, field.name)] = relation.name
            if relation.required:
                required[(relation.child, relation.parent)] = index
        for entity_index, entity in enumerate(blueprint.entities):
            for field_index, field in enumerate(entity.fields):
                if field.type == "ref" and (entity.name, field.name) not in used:
                    raise self.fail(
                        ("entities", entity_index, "fields", field_index),
                        f"ref field '{entity.name}.{field.name}' has no relation; add one under 'relations'",
                    )
        self.check_copies(used)
        if ordered_by_edges(self.entities, required) is None:
            self.fail_relation_cycle(required)

    def fail_relation_cycle(self, required: dict[tuple[str, str], int]) -> NoReturn:
        import networkx as nx  # only once a cycle is known, so that loading a blueprint never imports it

        blueprint = self.blueprint
        graph = nx.DiGraph()
        graph.add_edges_from((child, parent, {"relation": index}) for (child, parent), index in required.items())
        cycles = [_relation_cycle(graph, nodes) for nodes in nx.simple_cycles(graph)]
        # The same cycle and the same relation on every run: simple_cycles' order follows set iteration.
        indices, cycle = min(cycles, key=lambda found: (len(found[0]), sorted(found[0])))
        names = [f"'{blueprint.relations[index].name}'" for index in sorted(indices)]
        through = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        chain = " -> ".join([*cycle, cycle[0]])
        raise self.fail(
            ("relations", min(indices)),
            f"required foreign keys form a cycle ({chain}, through {through}), so no row can be inserted first; "
            "set 'required: false' on one of them",
        )

    def check_copies(self, used: dict[tuple[str, str], str]) -> None:
        parents = {(r.child, r.field): r.parent for r in self.blueprint.relations}
        for entity_index, entity in enumerate(self.blueprint.entities):
            for field_index, field in enumerate(entity.fields):
                generator = field.generator
                if generator is None:
                    continue
                path: Path_ = ("entities", entity_index, "fields", field_index, "generator")
                sources = [
                    generator.faker,
                    generator.choices,
                    generator.range,
                    generator.pattern,
                    generator.copy_from,
                ]
                if sum(source is not None for source in sources) != 1:
                    raise self.fail(path, "a generator needs exactly one of faker, choices, range, pattern, copy_from")
                if generator.copy_from is None:
                    continue
                ref_field, parent_field = generator.copy_from.split(".")
                parent = parents.get((entity.name, ref_field))
                if parent is None:
                    refs = [name for (child, name) in used if child == entity.name]
                    raise self.fail(
                        (*path, "copy_from"),
                        f"'{ref_field}' is not a ref field of '{entity.name}'{did_you_mean(ref_field, refs)}",
                    )
                self.field(self.entities[parent], parent_field, (*path, "copy_from"))

    def check_connected(self) -> None:
        links = [(relation.child, relation.parent) for relation in self.blueprint.relations]
        reachable = reached_from([self.blueprint.person], [*links, *((parent, child) for child, parent in links)])
        for index, entity in enumerate(self.blueprint.entities):
            if entity.name not in reachable:
                raise self.fail(
                    ("entities", index),
                    f"entity '{entity.name}' is not linked to the person entity '{self.blueprint.person}'; add a relation",
                )

    def check_ownership(self) -> None:
        blueprint = self.blueprint
        relations = {relation.name: relation for relation in blueprint.relations}
        indices = {entity.name: index for index, entity in enumerate(blueprint.entities)}
        for index, entity in enumerate(blueprint.entities):
            if entity.owner is None:
                continue
            path: Path_ = ("entities", index, "owner")
            own = [relation.name for relation in blueprint.relations if relation.child == entity.name]
            if entity.name == blueprint.person:
                raise self.fail(
                    path, f"entity '{entity.name}' is the person entity, so its rows are the people; remove 'owner'"
                )
            relation = relations.get(entity.owner)
            if relation is None:
                hint = did_you_mean(entity.owner, own) or f"; its relations are {listed(own)}"
                raise self.fail(path, f"unknown relation '{entity.owner}' in 'owner' of entity '{entity.name}'{hint}")
            if relation.child != entity.name:
                hint = did_you_mean(entity.owner, own) or f"; its relations are {listed(own)}"
                raise self.fail(
                    path,
                    f"relation '{relation.name}' links '{relation.child}' to '{relation.parent}', so it cannot make a "
                    f"row of '{entity.name}' belong to the person; 'owner' names a relation whose child is "
                    f"'{entity.name}'{hint}",
                )
        try:
            owner_paths(blueprint)
        except OwnershipError as exc:
            where: Path_ = ("entities", indices[exc.entity])
            owner = blueprint.entities[indices[exc.entity]].owner
            raise self.fail((*where, "owner") if owner is not None else where, str(exc)) from None

    def check_action(self, action: ActionSpec, path: Path_) -> None:
        self.entity(action.entity, (*path, "entity"))
        self.unique([param.name for param in action.params], (*path, "params"), "name", "argument")
        params = action.params
        for index, param in enumerate(params):
            if param.ref is not None:
                self.entity(param.ref, (*path, "params", index, "ref"))
            if param.type == "enum" and not param.values:
                raise self.fail(
                    (*path, "params", index), f"enum argument '{param.name}' needs 'values'; list the allowed values"
                )
            numeric = param.type in NUMERIC_TYPES
            for value in param.examples:
                if numeric != (isinstance(value, int | float) and not isinstance(value, bool)):
                    kind = "numbers" if numeric else "text"
                    raise self.fail(
                        (*path, "params", index, "examples"),
                        f"examples of {param.type} argument '{param.name}' must be {kind}; '{value}' is not",
                    )
                low = -math.inf if param.minimum is None else param.minimum
                high = math.inf if param.maximum is None else param.maximum
                if numeric and not low <= float(value) <= high:
                    raise self.fail(
                        (*path, "params", index, "examples"),
                        f"example {value} of argument '{param.name}' is outside its range; keep it within "
                        f"{param.minimum} to {param.maximum}",
                    )
            for value in param.says or {}:
                if value not in (param.values or []):
                    hint = did_you_mean(value, param.values or []) or f"; its values are {listed(param.values or [])}"
                    raise self.fail(
                        (*path, "params", index, "says", value),
                        f"'says' of argument '{param.name}' names '{value}', which is not one of its values{hint}",
                    )
        scope: dict[str, EntitySpec | None] = {}
        for index, binding in enumerate(action.bind):
            where = (*path, "bind", index)
            if binding.name in scope or binding.name in ("args", *CLOCK_NAMES):
                raise self.fail((*where, "name"), f"alias '{binding.name}' is already taken; rename it")
            entity = self.entity(binding.entity, (*where, "entity"))
            if (binding.key is None) == (binding.match is None):
                raise self.fail(where, "a binding needs exactly one of 'key' or 'match'")
            if binding.key is not None:
                self.expression(binding.key, (*where, "key"), scope, params)
            for name, source in (binding.match or {}).items():
                self.field(entity, name, (*where, "match", name))
                self.expressions.value(entity, name, source, (*where, "match", name), scope, params, matched=True)
            scope[binding.name] = entity
        for index, condition in enumerate(action.preconditions):
            self.expression(condition.require, (*path, "preconditions", index, "require"), scope, params)
        for index, effect in enumerate(action.effects):
            self.check_effect(effect, (*path, "effects", index), scope, params)
        for index, alias in enumerate(action.returns):
            if alias not in scope:
                hint = did_you_mean(alias, scope) or f"; the aliases are {listed(scope)}"
                raise self.fail((*path, "returns", index), f"unknown alias '{alias}'{hint}")

    def alias(self, alias: str, path: Path_, scope: dict[str, EntitySpec | None]) -> EntitySpec:
        entity = scope.get(alias)
        if entity is None:
            hint = did_you_mean(alias, scope) or f"; bind the row under 'bind' first (bound: {listed(scope)})"
            raise self.fail(path, f"unknown alias '{alias}'{hint}")
        return entity

    def check_effect(
        self, effect: EffectSpec, path: Path_, scope: dict[str, EntitySpec | None], params: Sequence[ParamSpec]
    ) -> None:
        match effect:
            case UpdateEffect():
                entity = self.alias(effect.update, (*path, "update"), scope)
                for name, source in effect.set.items():
                    self.field(entity, name, (*path, "set", name))
                    if _field_type(entity, name) == "id":
                        raise self.fail(
                            (*path, "set", name),
                            f"the key '{entity.name}.{name}' cannot be changed; remove it from 'set'",
                        )
                    self.expressions.value(entity, name, source, (*path, "set", name), scope, params)
            case IncrementEffect(increment=target) | DecrementEffect(decrement=target):
                kind = "increment" if isinstance(effect, IncrementEffect) else "decrement"
                alias, name = target.split(".")
                entity = self.alias(alias, (*path, kind), scope)
                self.field(entity, name, (*path, kind))
                if _field_type(entity, name) not in NUMERIC_TYPES:
                    raise self.fail(
                        (*path, kind),
                        f"'{target}' is not numeric; {kind} needs an integer, number or money field",
                    )
                self.expressions.amount(f"{kind}s '{target}'", effect.by, (*path, "by"), scope, params)
            case InsertEffect():
                entity = self.entity(effect.insert, (*path, "insert"))
                if effect.alias in scope:
                    raise self.fail((*path, "alias"), f"alias '{effect.alias}' is already taken; rename it")
                for name, source in effect.values.items():
                    self.field(entity, name, (*path, "values", name))
                    self.expressions.value(entity, name, source, (*path, "values", name), scope, params)
                for field in entity.fields:
                    if (
                        field.type != "id"
                        and not field.nullable
                        and field.default is None
                        and field.name not in effect.values
                    ):
                        raise self.fail(
                            (*path, "values"),
                            f"insert into '{entity.name}' must set '{field.name}' (not nullable, no default); "
                            "add it under 'values'",
                        )
                scope[effect.alias] = entity
            case DeleteEffect():
                if effect.where is None:
                    self.alias(effect.delete, (*path, "delete"), scope)
                else:
                    entity = self.entity(effect.delete, (*path, "delete"))
                    for name, source in effect.where.items():
                        self.field(entity, name, (*path, "where", name))
                        self.expressions.value(
                            entity, name, source, (*path, "where", name), scope, params, matched=True
                        )
            case _:
                assert_never(effect)

    def check_policies(self) -> None:
        blueprint = self.blueprint
        self.unique([policy.id for policy in blueprint.policies], ("policies",), "id", "policy")
        actions = {action.name: action for action in blueprint.actions}
        for index, policy in enumerate(blueprint.policies):
            path: Path_ = ("policies", index)
            if (policy.actions is None) == (policy.entity is None):
                raise self.fail(
                    path,
                    "a policy needs exactly one of 'actions' (checked before effects) or 'entity' (an invariant)",
                )
            if policy.entity is not None:
                if policy.kept_by == "agent" or policy.instead is not None:
                    raise self.fail(
                        path,
                        f"policy '{policy.id}' is an entity invariant, which only the runtime can keep and which offers"
                        " nothing instead; scope it to 'actions' or drop 'kept_by' and 'instead'",
                    )
                entity = self.entity(policy.entity, (*path, "entity"))
                self.expression(policy.require, (*path, "require"), {entity.name: entity}, [])
                continue
            for action_index, name in enumerate(policy.actions or []):
                action = actions.get(name)
                if action is None:
                    hint = did_you_mean(name, actions) or f"; the actions are {listed(actions)}"
                    raise self.fail((*path, "actions", action_index), f"unknown action '{name}'{hint}")
                scope: dict[str, EntitySpec | None] = {b.name: self.entities[b.entity] for b in action.bind}
                params = action.params
                self.expression(policy.require, (*path, "require"), scope, params)
                offered = actions.get(policy.instead_action or name)
                if offered is None:
                    hint = did_you_mean(str(policy.instead_action), actions) or f"; the actions are {listed(actions)}"
                    raise self.fail((*path, "instead_action"), f"unknown action '{policy.instead_action}'{hint}")
                if policy.instead_action is not None and policy.instead is None:
                    raise self.fail(path, "'instead_action' needs 'instead' to give the offered action's arguments")
                targets = [param.name for param in offered.params]
                for argument, source in (policy.instead or {}).items():
                    if argument not in targets:
                        hint = did_you_mean(argument, targets) or f"; its parameters are {listed(targets)}"
                        raise self.fail(
                            (*path, "instead", argument),
                            f"action '{offered.name}' has no parameter '{argument}'{hint}",
                        )
                    self.expression(source, (*path, "instead", argument), scope, params)
                if policy.instead_action is not None:
                    missing = [p.name for p in offered.params if p.name not in (policy.instead or {})]
                    if missing:
                        raise self.fail(
                            (*path, "instead"),
                            f"the offered action '{offered.name}' also needs {listed(missing)}; give each in 'instead'",
                        )

    def check_personas(self) -> None:
        self.unique([persona.name for persona in self.blueprint.personas], ("personas",), "name", "persona")
        person = self.entities[self.blueprint.person]
        # A persona's condition reads the person's row and, in a fused world, the same human's other records.
        scope: Scope = {name: self.entities[name] for name in [person.name, *self.blueprint.linked_persons]}
        for index, persona in enumerate(self.blueprint.personas):
            for known_index, name in enumerate(persona.knows):
                self.field(person, name, ("personas", index, "knows", known_index))
            if persona.fits is not None:
                self.expression(persona.fits, ("personas", index, "fits"), scope, [])

    def check_authentication(self) -> None:
        """Each credential names searchable person fields a lookup can take together, not names alone."""
        person = self.entities[self.blueprint.person]
        fields = {field.name: field for field in person.fields}
        for index, credential in enumerate(self.blueprint.authentication):
            path: Path_ = ("authentication", index)
            if not credential:
                raise self.fail(path, "a credential lists at least one person field, e.g. [email]")
            for at, name in enumerate(credential):
                self.field(person, name, (*path, at))
                if not fields[name].searchable or fields[name].type == "id":
                    raise self.fail(
                        (*path, at),
                        f"'{name}' is not a searchable field of '{person.name}', so no lookup takes it; "
                        "mark it `searchable: true` or use another field",
                    )
            if all(name in NAME_FIELDS for name in credential):
                raise self.fail(
                    path,
                    f"{listed(credential)} is only a name, and a name alone never authenticates; add what only the "
                    "person knows (e.g. [first_name, last_name, phone]) or use a unique field such as email",
                )


def _relation_cycle(graph: nx.DiGraph, nodes: list[str]) -> tuple[list[int], list[str]]:
    """The relation indices of a cycle of entities, and the entities rotated to start at the earliest relation."""
    indices = [graph.edges[child, nodes[(at + 1) % len(nodes)]]["relation"] for at, child in enumerate(nodes)]
    start = indices.index(min(indices))
    return indices, [*nodes[start:], *nodes[:start]]


def _field_type(entity: EntitySpec, name: str) -> str:
    return next(field.type for field in entity.fields if field.name == name)


def check_blueprint(blueprint: Blueprint, locations: Locations | None = None) -> None:
    """Raise BlueprintError on the first inconsistency, located in the source file."""
    Checker(blueprint, locations or Locations()).run()

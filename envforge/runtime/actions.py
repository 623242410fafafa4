"""Domain actions: bind rows, check preconditions and policies, apply effects in one transaction."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, assert_never

from envforge.ir.blueprint import (
    ActionSpec,
    DecrementEffect,
    DeleteEffect,
    EffectSpec,
    IncrementEffect,
    InsertEffect,
    UpdateEffect,
)
from envforge.ir.conditions import RuleVerdict, conditions_of
from envforge.ir.expressions import CompiledExpression, ExpressionError, compile_expression
from envforge.ir.stored_forms import Form, stored_arguments, stored_forms
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.environment import EntityRuntime, Environment
from envforge.runtime.errors import ToolError, constraint_error
from envforge.runtime.history import close_call, open_call
from envforge.runtime.ownership import NOBODY, OwnerQuery, compile_owner_queries

Scope = dict[str, Any]
Written = dict[str, set[str]]
KEY_DIGITS = 6


@dataclass(frozen=True)
class Binding:
    alias: str
    entity: EntityRuntime
    key: CompiledExpression | None
    match: tuple[tuple[str, CompiledExpression], ...]
    optional: bool
    key_param: str | None
    """The argument the key comes from, when it is plainly `args.<name>` (named in not-found errors)."""


@dataclass(frozen=True)
class Check:
    require: CompiledExpression
    error: str
    policy: str | None = None
    instead: tuple[tuple[str, CompiledExpression], ...] = ()
    """For a policy: the arguments it offers in place of a request that breaks it."""
    instead_action: str | None = None
    """For a policy whose offer is another action: its name (`instead` then gives all its arguments)."""


@dataclass(frozen=True)
class CompiledAction:
    name: str
    bindings: tuple[Binding, ...]
    preconditions: tuple[Check, ...]
    policies: tuple[Check, ...]
    """Rules the runtime keeps: a call that breaks one is refused."""
    effects: tuple[EffectSpec, ...]
    returns: tuple[tuple[str, EntityRuntime], ...]
    owned: tuple[tuple[str, OwnerQuery], ...] = ()
    """Arguments naming a row that must belong to the person served: (argument, its entity's owner query)."""
    kept_by_agent: tuple[Check, ...] = ()
    """Rules left to the agent: the call goes through, and only `ActionRunner.breaches` names them."""
    forms: dict[str, Form] = field(default_factory=dict)
    """Arguments every use of which folds their case: the history logs them folded (`envforge.ir.stored_forms`)."""


def compile_actions(env: Environment) -> dict[str, CompiledAction]:
    """Compile every action of the environment once; sessions share the result."""
    compiled: dict[str, CompiledAction] | None = env.compiled.get("actions")
    if compiled is None:
        compiled = {action.name: _compile(env, action) for action in env.blueprint.actions}
        env.compiled["actions"] = compiled
    return compiled


def _compile(env: Environment, action: ActionSpec) -> CompiledAction:
    bindings = []
    aliases: dict[str, EntityRuntime] = {}
    for spec in action.bind:
        key_param = spec.key[5:] if spec.key and spec.key.startswith("args.") and spec.key[5:].isidentifier() else None
        binding = Binding(
            alias=spec.name,
            entity=env.entities[spec.entity],
            key=compile_expression(spec.key) if spec.key else None,
            match=tuple((name, compile_expression(source)) for name, source in (spec.match or {}).items()),
            optional=spec.optional,
            key_param=key_param,
        )
        bindings.append(binding)
        aliases[spec.name] = binding.entity
    for effect in action.effects:
        if isinstance(effect, InsertEffect):
            aliases[effect.alias] = env.entities[effect.insert]
    owners = compile_owner_queries(env)
    owned = tuple(
        (param.name, owners[param.ref])
        for param in action.params
        if param.ref is not None and param.ref in owners and not param.any_owner
    )
    scoped = [
        Check(
            compile_expression(policy.require),
            policy.error,
            policy.id,
            tuple((name, compile_expression(source)) for name, source in (policy.instead or {}).items()),
            policy.instead_action,
        )
        for policy in env.blueprint.policies
        if action.name in (policy.actions or [])
    ]
    kept = {policy.id for policy in env.blueprint.policies if policy.kept_by == "agent"}
    policies = tuple(check for check in scoped if check.policy not in kept)
    kept_by_agent = tuple(check for check in scoped if check.policy in kept)
    return CompiledAction(
        name=action.name,
        bindings=tuple(bindings),
        preconditions=tuple(Check(compile_expression(c.require), c.error) for c in action.preconditions),
        policies=policies,
        effects=tuple(action.effects),
        returns=tuple((alias, aliases[alias]) for alias in action.returns),
        owned=owned,
        kept_by_agent=kept_by_agent,
        forms=stored_forms(action, env.blueprint.policies),
    )


class ActionRunner:
    """Runs compiled actions against one session's connection."""

    def __init__(
        self,
        env: Environment,
        connection: sqlite3.Connection,
        actions: dict[str, CompiledAction],
        person: str | None = None,
    ) -> None:
        self.env = env
        self.connection = connection
        self.actions = actions
        self.person = person
        """Key of the person the calls act for: arguments naming their rows must name this person's.
        None checks nothing (a session serving no task)."""
        self.logging = True
        """Log each committed call in the write history (off once the history is dropped)."""
        self.clock = env.blueprint.clock.isoformat()
        self.today = env.blueprint.clock.date().isoformat()
        self.invariants: dict[str, tuple[Check, ...]] = {}
        for policy in env.blueprint.policies:
            if policy.entity is not None:
                check = Check(compile_expression(policy.require), policy.error, policy.id)
                self.invariants[policy.entity] = (*self.invariants.get(policy.entity, ()), check)

    def stored_arguments(self, name: str, arguments: ToolArguments) -> ToolArguments:
        """A call's arguments as its action stores them, as the history logs them."""
        return stored_arguments(arguments, self.actions[name].forms)

    def handler(self, name: str) -> Callable[[ToolArguments], ToolResult]:
        action = self.actions[name]
        return lambda arguments: self.run(action, arguments)

    def _evaluate(self, expression: CompiledExpression, scope: Scope) -> Any:
        try:
            return expression(scope)
        except ExpressionError as exc:
            raise ToolError("precondition_failed", f"the request does not fit the records: {exc}") from None

    def _fetch(self, entity: EntityRuntime, key: Any) -> dict[str, Any] | None:
        row = self.connection.execute(entity.statements.select_by_key, {entity.key: key}).fetchone()
        return None if row is None else dict(row)

    def _bind(self, binding: Binding, scope: Scope) -> dict[str, Any] | None:
        entity = binding.entity
        if binding.key is not None:
            key = self._evaluate(binding.key, scope)
            row = self._fetch(entity, key)
            missing = f"no {entity.name} with {entity.key} '{key}'"
        else:
            values = {name: self._evaluate(expression, scope) for name, expression in binding.match}
            fields = tuple(name for name, _ in binding.match)
            found = self.connection.execute(entity.statements.select_match(fields), values).fetchone()
            row = None if found is None else dict(found)
            missing = f"no {entity.name} with " + ", ".join(f"{name} '{value}'" for name, value in values.items())
        if row is None and not binding.optional:
            raise ToolError("not_found", missing, field=binding.key_param)
        return row

    def _scope(self, action: CompiledAction, arguments: ToolArguments) -> Scope:
        scope: Scope = {"args": arguments, "now": self.clock, "today": self.today}
        for binding in action.bindings:
            scope[binding.alias] = self._bind(binding, scope)
        return scope

    def breaches(self, action: CompiledAction, arguments: ToolArguments) -> list[str]:
        """Ids of the rules left to the agent that the call would break on the current state; writes nothing.
        Raises ToolError when the call cannot bind its rows."""
        scope = self._scope(action, arguments)
        return [str(check.policy) for check in action.kept_by_agent if not self._evaluate(check.require, scope)]

    def verdicts(self, action: CompiledAction, arguments: ToolArguments) -> list[RuleVerdict]:
        """Each policy on the action (of either keeper): whether the call keeps it on the current state, and the
        conditions that verdict turns on. Writes nothing; raises ToolError when rows cannot bind."""
        scope = self._scope(action, arguments)
        try:
            return [
                conditions_of(check.require.source).verdict(str(check.policy), scope)
                for check in (*action.policies, *action.kept_by_agent)
            ]
        except ExpressionError as exc:
            raise ToolError("precondition_failed", f"the request does not fit the records: {exc}") from None

    def offer(self, action: CompiledAction, arguments: ToolArguments) -> tuple[str, str, ToolArguments] | None:
        """The first broken policy (of either keeper) that offers something instead: its id, the offered action
        and its arguments; None when no such policy is broken. Writes nothing; raises ToolError when rows
        cannot bind."""
        scope = self._scope(action, arguments)
        for check in (*action.policies, *action.kept_by_agent):
            if check.instead and not self._evaluate(check.require, scope):
                given = {name: self._evaluate(source, scope) for name, source in check.instead}
                if check.instead_action is not None:
                    return str(check.policy), check.instead_action, given
                return str(check.policy), action.name, {**arguments, **given}
        return None

    def admit(self, action: CompiledAction, arguments: ToolArguments) -> Scope:
        """The call's scope (its arguments and bound rows) when the call may go on to its effects on the current
        state; raises the ToolError that refuses it otherwise. Writes nothing: `run` admits every call by it, so
        asking here first tells exactly whether and why a call would be refused before its effects."""
        # Before binding: an attempt on another person's row is refused as such (and logged so) whatever else is
        # wrong with the call, and no error of a binding or a precondition tells anything about their rows. A missing
        # row is no one's, so binding still refuses it as not_found.
        self._check_owners(action, arguments)
        scope = self._scope(action, arguments)
        for check in action.preconditions:
            if not self._evaluate(check.require, scope):
                raise ToolError("precondition_failed", check.error)
        for check in action.policies:
            if not self._evaluate(check.require, scope):
                raise ToolError("policy_violation", check.error, policy=check.policy)
        return scope

    def run(self, action: CompiledAction, arguments: ToolArguments) -> ToolResult:
        scope = self.admit(action, arguments)
        keys: dict[str, tuple[EntityRuntime, Any]] = {
            binding.alias: (binding.entity, scope[binding.alias][binding.entity.key])
            for binding in action.bindings
            if scope[binding.alias] is not None
        }
        connection = self.connection
        connection.execute("BEGIN")
        try:
            if self.logging:
                open_call(connection, action.name, stored_arguments(arguments, action.forms))
            written: Written = {}
            for effect in action.effects:
                self._apply(effect, scope, keys, written)
            self._check_invariants(written)
            result: ToolResult = {}
            for alias, entity in action.returns:
                row = self._fetch(entity, keys[alias][1]) if alias in keys else None
                result[alias] = _with_booleans(entity, row)
            if self.logging:
                close_call(connection)
            connection.execute("COMMIT")
        except sqlite3.IntegrityError as exc:
            connection.execute("ROLLBACK")
            raise constraint_error(exc, action.name) from None
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        return result

    def _check_owners(self, action: CompiledAction, arguments: ToolArguments) -> None:
        if self.person is None:
            return
        person = self.env.blueprint.person
        for name, query in action.owned:
            key = arguments.get(name)
            if key is None:
                continue
            owner = query.owner(self.connection, key)
            if owner is NOBODY or owner == self.person:
                continue  # a row that does not exist is no one's: the foreign key or a binding refuses it
            whose = "no" if owner is None else "another"
            raise ToolError(
                "policy_violation",
                f"{query.entity} '{key}' belongs to {whose} {person}; act only for the {person} you serve",
                policy="ownership",
                field=name,
            )

    def _apply(
        self, effect: EffectSpec, scope: Scope, keys: dict[str, tuple[EntityRuntime, Any]], written: Written
    ) -> None:
        target = _target_alias(effect)
        if target is not None and target not in keys:
            return  # an optional binding that found no row: its effects do not apply
        execute = self.connection.execute
        match effect:
            case UpdateEffect():
                entity, key = keys[effect.update]
                values = {
                    f"new_{name}": self._value(entity, name, source, scope) for name, source in effect.set.items()
                }
                execute(entity.statements.update(tuple(effect.set)), {**values, entity.key: key})
            case IncrementEffect(increment=column) | DecrementEffect(decrement=column):
                alias, name = column.split(".")
                entity, key = keys[alias]
                amount = self._evaluate(compile_expression(effect.by), scope)
                if isinstance(effect, DecrementEffect):
                    amount = -amount
                execute(entity.statements.add(name, name in entity.money_fields), {"amount": amount, entity.key: key})
            case InsertEffect():
                entity = self.env.entities[effect.insert]
                row = self._new_row(entity, effect, scope)
                execute(entity.statements.insert, row)
                key = row[entity.key]
                scope[effect.alias] = row
                keys[effect.alias] = (entity, key)
            case DeleteEffect():
                self._delete(effect, scope, keys, written)
                return
            case _:
                assert_never(effect)
        written.setdefault(entity.name, set()).add(key)

    def _delete(
        self, effect: DeleteEffect, scope: Scope, keys: dict[str, tuple[EntityRuntime, Any]], written: Written
    ) -> None:
        if effect.where is None:
            entity, key = keys[effect.delete]
            doomed = [key]
        else:
            entity = self.env.entities[effect.delete]
            values = {name: self._evaluate(compile_expression(source), scope) for name, source in effect.where.items()}
            doomed = [
                row[0] for row in self.connection.execute(entity.statements.keys_where(tuple(effect.where)), values)
            ]
        for key in doomed:
            self.connection.execute(entity.statements.delete_by_key, {entity.key: key})
        written.setdefault(entity.name, set()).update(doomed)

    def _value(self, entity: EntityRuntime, field: str, source: str, scope: Scope) -> Any:
        value = self._evaluate(compile_expression(source), scope)
        if field in entity.money_fields and isinstance(value, int | float):
            return round(float(value), 2)
        return value

    def _new_row(self, entity: EntityRuntime, effect: InsertEffect, scope: Scope) -> dict[str, Any]:
        spec = self.env.blueprint.entity(entity.name)
        row: dict[str, Any] = {field.name: field.default for field in spec.fields}
        for name, source in effect.values.items():
            row[name] = self._value(entity, name, source, scope)
        row[entity.key] = self._next_key(entity)
        return row

    def _next_key(self, entity: EntityRuntime) -> str:
        # Keys are PREFIX-NNNNNN; the next one follows the largest, so replays give identical keys.
        largest = self.connection.execute(entity.statements.max_key).fetchone()[0]
        digits = str(largest).rpartition("-")[2] if largest else ""
        number = int(digits) + 1 if digits.isdigit() else 1
        return f"{entity.prefix}-{number:0{KEY_DIGITS}d}"

    def _check_invariants(self, written: Written) -> None:
        for name, keys in written.items():
            checks = self.invariants.get(name)
            if not checks:
                continue
            entity = self.env.entities[name]
            for key in sorted(keys):
                row = self._fetch(entity, key)
                if row is None:
                    continue
                for check in checks:
                    if not self._evaluate(check.require, {name: row, "now": self.clock, "today": self.today}):
                        raise ToolError("policy_violation", check.error, policy=check.policy)


def _target_alias(effect: EffectSpec) -> str | None:
    """The bound alias an effect changes, or None for inserts and deletes by `where`."""
    match effect:
        case UpdateEffect():
            return effect.update
        case IncrementEffect(increment=column) | DecrementEffect(decrement=column):
            return column.split(".")[0]
        case InsertEffect():
            return None
        case DeleteEffect():
            return effect.delete if effect.where is None else None
        case _:
            assert_never(effect)


def _with_booleans(entity: EntityRuntime, row: dict[str, Any] | None) -> dict[str, Any] | None:
    if row is not None:
        for name in entity.boolean_fields:
            if row[name] is not None:
                row[name] = bool(row[name])
    return row

"""The MCP annotations of each tool (the hints a client shows, or asks a person to confirm by), derived at serve
time from what the IR knows, so a package stays as it is.

- `readOnlyHint`: a READ tool.
- `destructiveHint`: a write that no later call undoes: it deletes rows, or moves a state field (an enum) into a
  value that no action moves a row out of (a cancelled order stays cancelled). A write that sets a value another
  call can set back (an email) or only adds rows and amounts is not.
- `idempotentHint`: a READ, or a write whose repeat with the same arguments changes nothing further: its
  preconditions no longer admit the state it leaves its row in (a second `cancel_order` is refused), or it only
  sets fields to values computed from its arguments and from fields it does not change (`update_email`).
- `openWorldHint`: false, since a tool reaches only the environment's own state.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from envforge.ir.blueprint import ActionSpec, Blueprint, DeleteEffect, InsertEffect, UpdateEffect
from envforge.ir.toolspec import ToolSpec
from envforge.text import humanize

StateField = tuple[str, str]
"""(entity, enum field)."""

CLOCK = frozenset({"now", "today"})
"""Names whose value changes between two calls, so a field set from them changes again on a repeat."""


@dataclass(frozen=True)
class _Move:
    """One action setting one state field of a bound row."""

    field: StateField
    sources: frozenset[str] | None
    """The values the action's preconditions admit for the field; None where they name none."""
    targets: frozenset[str] | None
    """The values the action may set; None where one is not written as a value."""
    keyed: bool
    """The row is bound by key, so a repeat with the same arguments finds the same row."""


def annotate_tools(blueprint: Blueprint, tools: list[ToolSpec]) -> dict[str, dict[str, Any]]:
    """Each tool's title and MCP annotations (wire form), by tool name."""
    actions = {action.name: action for action in blueprint.actions}
    states = {
        (entity.name, field.name): frozenset(field.values or ())
        for entity in blueprint.entities
        for field in entity.fields
        if field.type == "enum"
    }
    moves = {action.name: list(_moves(action, states)) for action in blueprint.actions}
    terminal = _terminal_values(states, [move for each in moves.values() for move in each])
    annotated = {}
    for tool in tools:
        title = humanize(tool.name).capitalize()
        hints: dict[str, Any] = {"title": title, "readOnlyHint": tool.kind == "read", "openWorldHint": False}
        if tool.kind == "read":
            hints |= {"destructiveHint": False, "idempotentHint": True}
        else:
            action = actions[tool.name]
            hints |= {
                "destructiveHint": _destructive(action, moves[action.name], terminal),
                "idempotentHint": _self_disabling(moves[action.name]) or _sets_only(action),
            }
        annotated[tool.name] = {"title": title, "annotations": hints}
    return annotated


def _aliases(action: ActionSpec) -> dict[str, str]:
    """Alias -> entity, of the rows the action binds and inserts."""
    aliases = {binding.name: binding.entity for binding in action.bind}
    aliases.update({effect.alias: effect.insert for effect in action.effects if isinstance(effect, InsertEffect)})
    return aliases


def _moves(action: ActionSpec, states: dict[StateField, frozenset[str]]) -> Iterator[_Move]:
    aliases = _aliases(action)
    keyed = {binding.name for binding in action.bind if binding.key is not None}
    for effect in action.effects:
        if not isinstance(effect, UpdateEffect):
            continue
        for name, source in effect.set.items():
            field = (aliases[effect.update], name)
            if field not in states:
                continue
            admitted = _admitted(action, effect.update, name, states[field])
            value = ast.parse(source.strip(), mode="eval").body
            # `'open' if slot.status == 'booked' else slot.status` moves only the rows its test admits.
            if isinstance(value, ast.IfExp) and _is_field(value.orelse, effect.update, name):
                tested = _compared(value.test, effect.update, name, states[field])
                if tested is not None:
                    admitted = tested if admitted is None else admitted & tested
            yield _Move(field, admitted, _literals(value, effect.update, name), effect.update in keyed)


def _admitted(action: ActionSpec, alias: str, name: str, values: frozenset[str]) -> frozenset[str] | None:
    """The values of `alias.name` that the action's preconditions admit, read from their `and`-joined
    comparisons with literals (`order.status in ('pending', 'processing')`); None where none compares it."""
    admitted: frozenset[str] | None = None
    for condition in action.preconditions:
        body = ast.parse(condition.require.strip(), mode="eval").body
        parts = body.values if isinstance(body, ast.BoolOp) and isinstance(body.op, ast.And) else [body]
        for part in parts:
            allowed = _compared(part, alias, name, values)
            if allowed is not None:
                admitted = allowed if admitted is None else admitted & allowed
    return admitted


def _compared(node: ast.expr, alias: str, name: str, values: frozenset[str]) -> frozenset[str] | None:
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1 and _is_field(node.left, alias, name)):
        return None
    operator, right = node.ops[0], node.comparators[0]
    items = right.elts if isinstance(right, ast.Tuple | ast.List | ast.Set) else [right]
    texts = [item.value for item in items if isinstance(item, ast.Constant) and isinstance(item.value, str)]
    if len(texts) < len(items):
        return None
    named = frozenset(texts)
    if isinstance(operator, ast.Eq | ast.In):
        return named
    if isinstance(operator, ast.NotEq | ast.NotIn):
        return values - named
    return None


def _is_field(node: ast.expr, alias: str, name: str) -> bool:
    """`node` is `alias.name`."""
    if not (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)):
        return False
    return (node.value.id, node.attr) == (alias, name)


def _literals(node: ast.expr, alias: str, name: str) -> frozenset[str] | None:
    """The values an effect's expression may set `alias.name` to; keeping its own value adds none."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return frozenset({node.value})
    if _is_field(node, alias, name):
        return frozenset()
    if isinstance(node, ast.IfExp):
        body, orelse = _literals(node.body, alias, name), _literals(node.orelse, alias, name)
        return None if body is None or orelse is None else body | orelse
    return None


def _terminal_values(states: dict[StateField, frozenset[str]], moves: list[_Move]) -> set[tuple[str, str, str]]:
    """(entity, field, value) of each state some action moves a row into and none moves it out of. Only an action
    whose preconditions name the field's values counts as moving out of them; one that sets the field without
    naming them follows another row's state (a payment refunded with its order), which the IR does not relate."""
    entered = {(*move.field, value) for move in moves for value in move.targets or ()}
    left = {
        (*move.field, value)
        for move in moves
        if move.sources is not None
        for value in move.sources
        if move.targets is None or move.targets - {value}
    }
    return {state for state in entered - left if state[2] in states[state[0], state[1]]}


def _destructive(action: ActionSpec, moves: list[_Move], terminal: set[tuple[str, str, str]]) -> bool:
    deletes = any(isinstance(effect, DeleteEffect) for effect in action.effects)
    return deletes or any((*move.field, value) in terminal for move in moves for value in move.targets or ())


def _self_disabling(moves: list[_Move]) -> bool:
    """A move leaves its row in a state the action's own preconditions refuse, so a repeat is refused."""
    return any(
        move.keyed and move.sources is not None and move.targets and not move.targets & move.sources for move in moves
    )


def _sets_only(action: ActionSpec) -> bool:
    """Every effect sets fields (or deletes) from values that a repeat computes the same way again."""
    if not all(isinstance(effect, UpdateEffect | DeleteEffect) for effect in action.effects):
        return False
    aliases = _aliases(action)
    changed = {
        (aliases[effect.update], name)
        for effect in action.effects
        if isinstance(effect, UpdateEffect)
        for name in effect.set
    }
    return all(
        _recomputed(ast.parse(source.strip(), mode="eval").body, (aliases[effect.update], name), changed, aliases)
        for effect in action.effects
        if isinstance(effect, UpdateEffect)
        for name, source in effect.set.items()
    )


def _recomputed(node: ast.expr, own: StateField, changed: set[StateField], aliases: dict[str, str]) -> bool:
    """The value does not depend on a field the action changes or on the clock, except that it may keep `own`."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        field = (aliases.get(node.value.id, node.value.id), node.attr)
        if field == own:
            return True
    if isinstance(node, ast.IfExp):
        return _reads_nothing_changed(node.test, changed, aliases) and all(
            _recomputed(branch, own, changed, aliases) for branch in (node.body, node.orelse)
        )
    return _reads_nothing_changed(node, changed, aliases)


def _reads_nothing_changed(node: ast.expr, changed: set[StateField], aliases: dict[str, str]) -> bool:
    for part in ast.walk(node):
        if isinstance(part, ast.Name) and part.id in CLOCK:
            return False
        if (
            isinstance(part, ast.Attribute)
            and isinstance(part.value, ast.Name)
            and (aliases.get(part.value.id, part.value.id), part.attr) in changed
        ):
            return False
    return True

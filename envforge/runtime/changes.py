"""The net changes of a write history: what `diff_states` finds, read from the writes alone.

Folding the history costs what the run wrote, not what the state holds, and gives the same changes as
diffing the two whole states (tests check this over every task of every shipped domain).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from envforge.ir.tasks import RowChange, RowWrite
from envforge.runtime.diff import normal
from envforge.runtime.history import history_of


@dataclass
class _Row:
    entity: str
    first: dict[str, Any] | None
    """The row before the history's first write to it; None if that write inserted it."""
    last: dict[str, Any] | None
    """The row after the last write; None if that write deleted it."""


def fold_history(history: list[RowWrite], keys: dict[str, str]) -> list[RowChange]:
    """Net changes of `history`; `keys` maps each entity to its key column."""
    rows: dict[tuple[str, str], _Row] = {}
    for write in history:
        row = rows.setdefault((write.entity, write.key), _Row(write.entity, write.before, write.before))
        row.last = write.after
    changes: list[RowChange] = []
    inserted: list[tuple[str, dict[str, Any]]] = []
    new_keys: dict[Any, str] = {}
    for (entity, key), row in sorted(rows.items()):
        key_column = keys[entity]
        if row.first is not None and row.last is not None:
            fields = [name for name in row.last if normal(row.first.get(name)) != normal(row.last[name])]
            if fields:
                before = {name: normal(row.first.get(name)) for name in fields}
                after = {name: normal(row.last[name]) for name in fields}
                changes.append(RowChange(entity=entity, key=key, before=before, after=after))
        elif row.first is not None:
            deleted = {name: normal(value) for name, value in row.first.items()}
            changes.append(RowChange(entity=entity, key=key, before=deleted, after=None))
        elif row.last is not None:
            inserted.append((entity, {name: normal(value) for name, value in row.last.items() if name != key_column}))
            new_keys[row.last[key_column]] = entity
    for entity, values in inserted:
        canonical = {name: f"<new {new_keys[value]}>" if value in new_keys else value for name, value in values.items()}
        changes.append(RowChange(entity=entity, key=None, before=None, after=canonical))
    return changes


def net_changes(state: bytes) -> list[RowChange]:
    """The net changes the write history in `state` made to it."""
    history = history_of(state)
    return fold_history(history.writes, history.keys)

"""What a verifier keeps of a golden run: its WRITE calls and the footprint of its row writes."""

from __future__ import annotations

from collections.abc import Set

from envforge.ir.tasks import ExpectedCall, Footprint, RunHistory


def expected_calls(history: RunHistory, accumulative: Set[str]) -> list[ExpectedCall]:
    """The run's committed WRITE calls; `accumulative` names the actions whose calls add up."""
    return [
        ExpectedCall(tool=call.tool, arguments=call.arguments, accumulative=call.tool in accumulative)
        for call in history.calls
        if call.kind == "write"
    ]


def footprint_of(history: RunHistory) -> Footprint:
    """The cells the run's writes changed and how often, the rows it inserted and deleted."""
    footprint = Footprint()
    inserted: set[tuple[str, str]] = set()
    for write in history.writes:
        row = (write.entity, write.key)
        if write.op == "insert":
            footprint.inserts[write.entity] = footprint.inserts.get(write.entity, 0) + 1
            inserted.add(row)
        elif write.op == "delete":
            if row not in inserted:
                footprint.deletes.setdefault(write.entity, []).append(write.key)
        elif row not in inserted:
            columns = footprint.updates.setdefault(write.entity, {}).setdefault(write.key, {})
            for column in write.changed():
                columns[column] = columns.get(column, 0) + 1
    return footprint

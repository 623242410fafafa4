"""The write history a session keeps: captured by SQLite triggers in the state, on a real retail package."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.hashing import canonical_json
from envforge.ir.tasks import CallRecord, RowChange, RowWrite, RunHistory
from envforge.ir.toolspec import ToolArguments, ToolResult
from envforge.runtime.changes import net_changes
from envforge.runtime.diff import diff_states
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.history import CALLS, HISTORY, OPEN_INDEX, history_mark, history_of, undo_history
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_tasks
from tests.conftest import BLUEPRINTS
from tests.runtime.probes import fields, first

DOMAINS = [path.stem for path in BLUEPRINTS]


def test_a_cancel_logs_each_row_it_wrote_in_order_with_the_columns_before_and_after(retail_env: Environment) -> None:
    session = Session(retail_env)
    order = first(session, "list_orders", status="pending")
    payment = first(session, "list_payments", order_id=order["order_id"])
    result = session.call("cancel_order", {"order_id": order["order_id"], "reason": "found_cheaper"})
    history = session.history().writes
    assert [write.seq for write in history] == sorted(write.seq for write in history)
    updated = {(write.entity, write.key): write.changed() for write in history if write.op == "update"}
    assert updated[("order", order["order_id"])]["status"] == ("pending", "cancelled")
    assert updated[("payment", payment["payment_id"])]["status"] == (payment["status"], "refunded")
    [insert] = [write for write in history if write.op == "insert"]
    assert (insert.entity, insert.key, insert.before) == ("refund", fields(result["refund"])["refund_id"], None)
    assert insert.after is not None
    assert insert.after["amount"] == pytest.approx(fields(result["refund"])["amount"])


def test_a_refused_call_writes_nothing_and_the_right_call_after_it_only_its_own_rows(retail_env: Environment) -> None:
    session = Session(retail_env)
    shipped = first(session, "list_orders", status="delivered")
    ok, _ = session.call_tool("cancel_order", {"order_id": shipped["order_id"], "reason": "changed_mind"})
    assert not ok
    assert session.history().writes == []
    pending = first(session, "list_orders", status="pending")
    session.call("cancel_order", {"order_id": pending["order_id"], "reason": "changed_mind"})
    keys = {write.key for write in session.history().writes if write.entity == "order"}
    assert keys == {pending["order_id"]}


def test_the_store_logs_sql_that_bypasses_tool_dispatch_including_deletes(retail_env: Environment) -> None:
    session = Session(retail_env)
    address = first(session, "list_addresses")
    session.connection.execute("DELETE FROM address WHERE address_id = ?", (address["address_id"],))
    [write] = session.history().writes
    assert (write.op, write.entity, write.key, write.after) == ("delete", "address", address["address_id"], None)
    assert write.before is not None
    assert write.before["city"] == address["city"]


def test_a_write_that_changes_nothing_is_logged_but_reports_no_changed_column(retail_env: Environment) -> None:
    session = Session(retail_env)
    customer = first(session, "list_customers")
    session.connection.execute("UPDATE customer SET email = email WHERE customer_id = ?", (customer["customer_id"],))
    [write] = session.history().writes
    assert write.op == "update"
    assert write.changed() == {}


def test_reset_clears_the_history_and_a_snapshot_carries_it(retail_env: Environment) -> None:
    session = Session(retail_env)
    customer = first(session, "list_customers")
    session.call("grant_store_credit", {"customer_id": customer["customer_id"], "amount": 5})
    session.call("grant_store_credit", {"customer_id": customer["customer_id"], "amount": 5})
    snapshot = session.snapshot()
    credits = [write.changed()["store_credit"] for write in session.history().writes]
    assert [after - before for before, after in credits] == [pytest.approx(5), pytest.approx(5)]
    assert history_of(snapshot) == session.history()
    session.reset()
    assert session.history().writes == []
    session.reset(snapshot)
    assert history_of(snapshot) == session.history()
    assert len(session.history().writes) == 2


def test_a_state_without_a_history_gets_one_when_a_session_is_reset_to_it(retail_env: Environment) -> None:
    session = Session(retail_env)
    session.connection.execute(f"DROP TABLE {HISTORY}")
    bare = session.snapshot()
    session.reset(bare)
    customer = first(session, "list_customers")
    session.call("grant_store_credit", {"customer_id": customer["customer_id"], "amount": 1})
    assert [write.entity for write in session.history().writes] == ["customer"]


def test_the_history_is_never_part_of_a_diff_or_the_state_hash(retail_env: Environment) -> None:
    session = Session(retail_env)
    initial, initial_hash = session.snapshot(), session.state_hash()
    customer = first(session, "list_customers")
    session.call("grant_store_credit", {"customer_id": customer["customer_id"], "amount": 2})
    session.call("grant_store_credit", {"customer_id": customer["customer_id"], "amount": 3})
    assert [change.entity for change in diff_states(initial, session.snapshot())] == ["customer"]
    session.connection.execute(f"DELETE FROM {HISTORY}")
    assert session.history().writes == []
    session.reset(initial)  # the log was cut by hand, so only the template's bytes get back there
    assert session.state_hash() == initial_hash


LONG_RUN = 10_000
"""Calls logged before the WRITE that a long run's tests time by SQLite's own count of steps."""


def _steps(session: Session, tool: str, arguments: ToolArguments) -> tuple[int, ToolResult]:
    """SQLite virtual-machine steps one call takes (triggers included), and its result: a measure of work that,
    unlike a clock, is the same on every run."""
    steps = 0

    def count() -> int:
        nonlocal steps
        steps += 1
        return 0

    session.connection.set_progress_handler(count, 1)
    try:
        result = session.call(tool, arguments)
    finally:
        session.connection.set_progress_handler(None, 1)
    return steps, result


def _without_numbering(history: RunHistory, since: int) -> tuple[list[CallRecord], list[RowWrite]]:
    """The calls and row writes logged after the first `since` calls, without their sequence numbers."""
    calls = [call.model_copy(update={"seq": 0}) for call in history.calls[since:]]
    logged = {call.seq for call in history.calls[since:]}
    writes = [write.model_copy(update={"seq": 0, "call": 0}) for write in history.writes if write.call in logged]
    return calls, writes


def test_a_write_after_a_long_run_does_the_same_work_and_logs_the_same_as_a_fresh_one(
    retail_env: Environment,
) -> None:
    session = Session(retail_env)
    order = first(session, "list_orders", status="pending")
    arguments: ToolArguments = {"order_id": order["order_id"], "reason": "other"}
    session.reset()
    _steps(session, "cancel_order", arguments)  # SQLite prepares each statement on its first use
    session.reset()
    fresh_steps, fresh_result = _steps(session, "cancel_order", arguments)
    fresh_hash, fresh_history = session.state_hash(), _without_numbering(session.history(), 0)
    session.reset()
    for _ in range(LONG_RUN):
        session.call("get_order", {"order_id": order["order_id"]})
    long_steps, long_result = _steps(session, "cancel_order", arguments)
    assert long_result == fresh_result
    assert session.state_hash() == fresh_hash
    assert _without_numbering(session.history(), LONG_RUN) == fresh_history
    # Finding the open call scans nothing: the work does not grow with the calls logged before it.
    assert long_steps <= fresh_steps


def test_the_open_call_is_found_through_the_call_logs_index(retail_env: Environment) -> None:
    session = Session(retail_env)
    plans = [
        " ".join(str(row[3]) for row in session.connection.execute(f"EXPLAIN QUERY PLAN {query}"))
        for query in (f"SELECT seq FROM {CALLS} WHERE open = 1", f"UPDATE {CALLS} SET open = 0 WHERE open = 1")
    ]
    assert all(OPEN_INDEX in plan and "SCAN" not in plan for plan in plans), plans


def test_a_snapshot_made_before_the_index_gets_it_when_a_session_is_reset_to_it(retail_env: Environment) -> None:
    session = Session(retail_env)
    session.connection.execute(f'DROP INDEX "{OPEN_INDEX}"')
    session.reset(session.snapshot())
    assert session.connection.execute("SELECT 1 FROM sqlite_master WHERE name = ?", (OPEN_INDEX,)).fetchone()


def test_undoing_back_to_a_mark_keeps_what_came_before_it(retail_env: Environment) -> None:
    session = Session(retail_env)
    customer = first(session, "list_customers")
    session.call("grant_store_credit", {"customer_id": customer["customer_id"], "amount": 5})
    mark, marked_hash, marked = history_mark(session.connection), session.state_hash(), session.history()
    order = first(session, "list_orders", status="pending")
    session.call("cancel_order", {"order_id": order["order_id"], "reason": "other"})
    session.call("grant_store_credit", {"customer_id": customer["customer_id"], "amount": 7})
    assert undo_history(session.connection, retail_env.entities, 100, since=mark)
    assert (session.state_hash(), session.history()) == (marked_hash, marked)
    # Sequence numbers carry on from the mark, as if the undone calls had never been made.
    session.call("cancel_order", {"order_id": order["order_id"], "reason": "other"})
    assert session.history().calls[len(marked.calls)].seq == mark[1] + 1


def _canonical(changes: list[RowChange]) -> list[str]:
    return sorted(canonical_json(change.model_dump(mode="json")) for change in changes)


@pytest.mark.parametrize("domain", DOMAINS)
def test_folding_the_history_gives_the_diff_of_the_whole_states_for_every_oracle(
    packages: dict[str, Path], domain: str
) -> None:
    env = load_environment(open_package(packages[domain]))
    session = Session(env)
    tasks = list(load_tasks(open_package(packages[domain])).values())
    writes = [task for task in tasks if task.kind != "read"]
    assert writes
    for task in tasks:
        session.reset()
        for call in task.oracle:
            session.call_tool(call.name, call.arguments)
        final = session.snapshot()
        assert _canonical(net_changes(final)) == _canonical(diff_states(env.template, final)), task.id
    # Every oracle's writes at once, one after another: rows written by several tasks, inserts among them.
    session.reset()
    for task in writes:
        for call in task.oracle:
            session.call_tool(call.name, call.arguments)
    final = session.snapshot()
    assert _canonical(net_changes(final)) == _canonical(diff_states(env.template, final))


def test_the_call_log_holds_each_read_with_its_rows_each_write_and_each_refused_attempt(
    retail_env: Environment,
) -> None:
    session = Session(retail_env)
    order = first(session, "list_orders", status="pending")
    customer = session.call("get_customer", {"customer_id": order["customer_id"]})
    session.call("find_customer_by_email", {"email": customer["email"]})
    ok, _ = session.call_tool("grant_store_credit", {"customer_id": "CUS-000000", "amount": 5})
    assert not ok
    session.call("cancel_order", {"order_id": order["order_id"], "reason": "other"})
    history = session.history()
    reads = [call for call in history.calls if call.kind == "read"]
    attempts = [call for call in history.calls if call.refusal is not None]
    writes = [call for call in history.calls if call.kind == "write" and call.refusal is None]
    assert [call.tool for call in reads] == ["list_orders", "get_customer", "find_customer_by_email"]
    assert order["order_id"] in reads[0].rows["order"] and reads[0].persons == []
    assert reads[1].rows == {"customer": [customer["customer_id"]]} and reads[1].persons == [customer["customer_id"]]
    assert reads[2].persons == [customer["customer_id"]] and reads[2].arguments == {"email": customer["email"]}
    # A refused attempt stays, with why; it wrote nothing.
    assert [(call.tool, call.refusal) for call in attempts] == [("grant_store_credit", "not_found")]
    assert [(call.tool, call.arguments) for call in writes] == [
        ("cancel_order", {"order_id": order["order_id"], "reason": "other"})
    ]
    assert {write.call for write in history.writes} == {writes[0].seq}
    assert all(call.seq < writes[0].seq for call in reads)
    session.reset()
    assert session.history().calls == []


def test_an_argument_the_action_lower_cases_is_logged_lower_cased(retail_env: Environment) -> None:
    session = Session(retail_env)
    customer = first(session, "list_customers")
    session.call("update_email", {"customer_id": customer["customer_id"], "email": "Ann.Lee@Example.COM"})
    (write,) = [call for call in session.history().calls if call.kind == "write"]
    assert write.arguments == {"customer_id": customer["customer_id"], "email": "ann.lee@example.com"}


@pytest.mark.parametrize("domain", DOMAINS)
def test_a_reset_that_undoes_the_history_returns_to_the_template_after_every_oracle(
    packages: dict[str, Path], domain: str
) -> None:
    env = load_environment(open_package(packages[domain]))
    session = Session(env)
    template_hash = session.state_hash()
    tasks = list(load_tasks(open_package(packages[domain])).values())
    for task in tasks:
        for call in task.oracle:
            session.call_tool(call.name, call.arguments)
        session.reset()
        assert session.state_hash() == template_hash, task.id
        assert session.history() == RunHistory()
    for task in tasks:  # every oracle at once: rows written by several tasks, inserts and deletes among them
        for call in task.oracle:
            session.call_tool(call.name, call.arguments)
    assert session.history().writes
    session.reset()
    assert session.state_hash() == template_hash

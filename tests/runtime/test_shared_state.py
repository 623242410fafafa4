"""The sessions of a store take turns on one connection holding the template, yet each answers exactly as a private
session given the same calls would: the same results, rows, history and state hash, in any interleaving, from any
thread; and each falls back to a private connection where sharing cannot hold its state."""

from __future__ import annotations

import random
import sqlite3
import threading
from typing import Any

import anyio
import mcp
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from envforge.runtime.apps.pickers import PickerSource
from envforge.runtime.environment import Environment
from envforge.runtime.episode_store import EpisodeStore
from envforge.runtime.history import history_of
from envforge.runtime.mcp_server import EnvServer
from envforge.runtime.session import Session
from tests.runtime.apps.test_pickers import action_form
from tests.runtime.probes import attempts, fields, first
from tests.runtime.test_mcp_episodes import meta

Call = tuple[str, dict[str, Any]]
SESSIONS = 4
CALLS_PER_TOOL = 3


@pytest.fixture(scope="module")
def calls(retail_env: Environment) -> list[Call]:
    """Calls of every tool: for each WRITE, some that succeed on the template and one it refuses; two READs."""
    rng = random.Random(7)
    scratch = Session(retail_env)
    found: list[Call] = [("list_customers", {"limit": 3}), ("list_orders", {"status": "pending", "limit": 5})]
    for tool in retail_env.toolgraph.tools:
        if tool.kind != "write":
            continue
        ok_calls, refused = 0, 0
        for arguments in attempts(scratch, tool, rng):
            ok, _ = scratch.call_tool(tool.name, arguments)
            scratch.reset()
            if (ok and ok_calls < CALLS_PER_TOOL) or (not ok and not refused):
                found.append((tool.name, arguments))
                ok_calls, refused = ok_calls + ok, refused + (not ok)
            if ok_calls == CALLS_PER_TOOL and refused:
                break
    return found


def _same(shared: Session, private: Session) -> None:
    assert shared.history() == private.history()
    assert shared.state_hash() == private.state_hash()


def _step(session: Session, action: str, call: Call) -> object:
    tool, arguments = call
    if action == "call":
        return session.call_tool(tool, arguments)
    if action == "reset":
        session.reset()
        return None
    if action == "verdicts":
        return session.verdicts(tool, arguments), session.breaches(tool, arguments), session.offer(tool, arguments)
    if action == "rows":
        return session.rows(session.env.toolgraph.tools[0].entity)
    return history_of(session.snapshot())


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_interleaved_sessions_of_a_store_answer_as_private_sessions_do(
    retail_env: Environment, calls: list[Call], data: st.DataObject
) -> None:
    store = EpisodeStore(retail_env, max_episodes=SESSIONS)
    shared = [store.open_free().session for _ in range(SESSIONS)]
    private = [Session(retail_env) for _ in range(SESSIONS)]
    steps = data.draw(
        st.lists(
            st.tuples(
                st.integers(0, SESSIONS - 1),
                st.sampled_from(["call", "call", "call", "call", "reset", "verdicts", "rows", "snapshot"]),
                st.integers(0, len(calls) - 1),
            ),
            max_size=40,
        )
    )
    for index, action, call in steps:
        assert _step(shared[index], action, calls[call]) == _step(private[index], action, calls[call])
    for one, other in zip(shared, private, strict=True):
        _same(one, other)
        assert one.joined


def test_every_logged_write_kind_survives_parking(retail_env: Environment, calls: list[Call]) -> None:
    store = EpisodeStore(retail_env)
    one, two = store.open_free().session, store.open_free().session
    mirror = Session(retail_env)
    for call in calls:
        assert one.call_tool(*call) == mirror.call_tool(*call)
        two.call_tool("list_customers", {"limit": 1})
    assert {write.op for write in one.history().writes} >= {"insert", "update"}
    _same(one, mirror)
    assert two.state_hash() == Session(retail_env).state_hash()


def test_a_foreign_snapshot_goes_private_and_a_reset_to_the_template_joins_again(
    retail_env: Environment, calls: list[Call]
) -> None:
    store = EpisodeStore(retail_env)
    one, two = store.open_free().session, store.open_free().session
    elsewhere = Session(retail_env)
    elsewhere.call_tool(*calls[2])
    one.call_tool(*calls[3])
    one.reset(elsewhere.snapshot())
    assert not one.joined
    two.call_tool(*calls[4])
    _same(one, elsewhere)
    one.reset()
    assert one.joined and one.state_hash() == Session(retail_env).state_hash() and not one.history().calls
    mirror = Session(retail_env)
    mirror.call_tool(*calls[4])
    _same(two, mirror)


def test_a_dropped_history_goes_private_and_keeps_the_state(retail_env: Environment, calls: list[Call]) -> None:
    store = EpisodeStore(retail_env)
    one, two = store.open_free().session, store.open_free().session
    mirror = Session(retail_env)
    for session in (one, mirror):
        session.call_tool(*calls[2])
        session.drop_history()
        session.call_tool(*calls[5])
    two.call_tool(*calls[3])
    assert not one.joined and one.state_hash() == mirror.state_hash() and one.history() == mirror.history()
    one.reset()
    assert not one.joined, "a session that keeps no history cannot be parked"


def test_more_writes_than_undo_can_take_back_go_private(retail_env: Environment, calls: list[Call]) -> None:
    store = EpisodeStore(retail_env)
    store.shared.undo_limit = 1
    one, two = store.open_free().session, store.open_free().session
    mirror = Session(retail_env)
    for call in calls:
        assert one.call_tool(*call) == mirror.call_tool(*call)
    assert len(one.history().writes) > 1
    assert two.state_hash() == Session(retail_env).state_hash()
    assert not one.joined
    _same(one, mirror)
    assert two.joined and two.history() == Session(retail_env).history()


def test_a_closed_session_fails_as_a_closed_connection_and_the_others_go_on(
    retail_env: Environment, calls: list[Call]
) -> None:
    store = EpisodeStore(retail_env)
    served = store.open_free()
    other = store.open_free().session
    served.call(*calls[2])
    store.close(served.id)
    with pytest.raises(sqlite3.ProgrammingError):
        served.session.call(*calls[0])
    assert other.state_hash() == Session(retail_env).state_hash()


def test_threads_driving_their_own_episodes_never_see_each_other(retail_env: Environment, calls: list[Call]) -> None:
    store = EpisodeStore(retail_env)
    sessions = [store.open_free().session for _ in range(SESSIONS)]
    plans = [random.Random(seed).choices(calls, k=30) for seed in range(SESSIONS)]
    results: dict[int, list[object]] = {}

    def drive(index: int) -> None:
        results[index] = [sessions[index].call_tool(*call) for call in plans[index]]

    threads = [threading.Thread(target=drive, args=(index,)) for index in range(SESSIONS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index, session in enumerate(sessions):
        mirror = Session(retail_env)
        assert results[index] == [mirror.call_tool(*call) for call in plans[index]]
        _same(session, mirror)


def test_a_picker_lists_its_own_sessions_rows_whichever_session_wrote_last(retail_env: Environment) -> None:
    order = first(Session(retail_env), "list_orders", status="pending")
    customer = order["customer_id"]
    form = action_form(retail_env, "update_shipping_address")
    store = EpisodeStore(retail_env)
    mine, theirs = store.open_free(person=customer).session, store.open_free(person=customer).session
    source = PickerSource(retail_env, mine)
    before = {choice.key for choice in source.pickers(form, {}, {})["address_id"].choices}
    address = {"customer_id": customer, "label": "other", "street": "1 Lake Rd", "city": "Bend", "postal_code": "97701"}
    added = fields(mine.call("add_address", address)["address"])["address_id"]
    theirs.call("list_customers", {"limit": 1})
    listed = source.pickers(form, {}, {})["address_id"]
    assert {choice.key for choice in listed.choices} == before | {added}
    assert "1 Lake Rd" in (listed.label(added) or "")
    others = PickerSource(retail_env, theirs).pickers(form, {}, {})["address_id"]
    assert {choice.key for choice in others.choices} == before


async def _interleave_over_mcp(server: EnvServer, episodes: list[str], plan: list[tuple[int, Call]]) -> list[bool]:
    async with mcp.Client(server.server) as client:
        return [
            not (await client.call_tool(tool, arguments, meta=meta(episodes[index]))).is_error
            for index, (tool, arguments) in plan
        ]


def test_episodes_served_over_mcp_interleave_as_private_sessions(retail_env: Environment, calls: list[Call]) -> None:
    server = EnvServer(retail_env)
    episodes = [server.episodes.open_free(f"episode-{index}").id for index in range(SESSIONS)]
    rng = random.Random(3)
    plan = [(rng.randrange(SESSIONS), rng.choice(calls)) for _ in range(40)]
    oks = anyio.run(_interleave_over_mcp, server, episodes, plan)
    mirrors = [Session(retail_env) for _ in range(SESSIONS)]
    assert oks == [mirrors[index].call_tool(*call)[0] for index, call in plan]
    assert any(oks) and not all(oks)
    for episode, mirror in zip(episodes, mirrors, strict=True):
        _same(server.episodes.get(episode).session, mirror)

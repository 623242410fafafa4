"""Tool noise on a real package's SQLite session (`envforge.runtime.tool_noise`): each kind does what it says, a
failure changes and logs nothing, a retry is always clean, and the draws are fixed by the seed and nested by level."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from envforge.errors import UserInputError
from envforge.hashing import canonical_json
from envforge.ir.noise import SHIPPED, NoiseProfile, ToolNoiseKind, noise_profile
from envforge.runtime.environment import Environment
from envforge.runtime.session import Session
from envforge.runtime.tool_noise import PAGE, STALE_WARNING, NoisyTools


def _tools(env: Environment, kind: ToolNoiseKind, seed: str = "s") -> NoisyTools:
    drawn = NoiseProfile(tool=[kind], level=1.0).episode(seed)
    assert drawn is not None
    return NoisyTools(Session(env), drawn)


def _call(tools: NoisyTools, name: str, arguments: dict[str, Any]) -> tuple[bool, Any]:
    return tools.call_tool(name, arguments)


def _busy_customer(session: Session) -> tuple[str, int]:
    """A customer with more orders than fit on a noisy page."""
    counts: dict[str, int] = {}
    for order in session.rows("order"):
        counts[order["customer_id"]] = counts.get(order["customer_id"], 0) + 1
    customer, count = max(counts.items(), key=lambda item: (item[1], item[0]))
    assert count > PAGE
    return customer, count


def test_a_failed_write_changes_and_logs_nothing_and_its_retry_goes_through(retail_env: Environment) -> None:
    tools = _tools(retail_env, "transient")
    session = tools.session
    order = next(row for row in session.rows("order") if row["status"] == "processing")
    before = session.state_hash()
    arguments = {"order_id": order["order_id"], "reason": "ordered_by_mistake"}
    ok, result = tools.call_tool("cancel_order", arguments)
    assert not ok and result["error"] == {
        "code": "unavailable",
        "message": "the service is briefly unavailable; nothing was changed. Try the same call again.",
        "tool": "cancel_order",
        "retryable": True,
    }
    assert session.state_hash() == before and session.history().calls == []
    ok, result = tools.call_tool("cancel_order", arguments)
    assert ok, result
    assert [call.tool for call in session.history().calls] == ["cancel_order"]
    assert [(event.call, event.kind) for event in tools.events] == [(0, "transient")]


def test_a_cut_list_pages_through_to_exactly_the_clean_listing(retail_env: Environment) -> None:
    tools = _tools(retail_env, "paginated")
    customer, count = _busy_customer(tools.session)
    clean = Session(retail_env).call("list_orders", {"customer_id": customer})
    ok, page = _call(tools, "list_orders", {"customer_id": customer})
    assert ok and len(page["items"]) == PAGE and page["total"] == count and page["next_offset"] == PAGE
    assert page["note"] == f"showing {PAGE} of {count}; call again with offset {PAGE} for the next page"
    seen = list(page["items"])
    while "next_offset" in page:
        ok, page = _call(tools, "list_orders", {"customer_id": customer, "offset": page["next_offset"]})
        assert ok
        seen += page["items"]
    assert seen == clean["items"]
    logged = [call for call in tools.session.history().calls if call.tool == "list_orders"]
    assert sum(len(call.rows["order"]) for call in logged) == count, "each page logs only the rows it showed"


def test_a_stale_read_shows_the_row_before_this_episodes_write_and_a_second_read_is_fresh(
    retail_env: Environment,
) -> None:
    tools = _tools(retail_env, "stale")
    session = tools.session
    order = next(row for row in session.rows("order") if row["status"] == "processing")
    session.call("cancel_order", {"order_id": order["order_id"], "reason": "ordered_by_mistake"})
    ok, stale = tools.call_tool("get_order", {"order_id": order["order_id"]})
    assert ok and stale["status"] == "processing" and stale["warning"] == STALE_WARNING
    ok, fresh = tools.call_tool("get_order", {"order_id": order["order_id"]})
    assert ok and fresh["status"] == "cancelled" and "warning" not in fresh


def test_a_malformed_answer_is_a_retryable_error_holding_the_start_of_the_real_one(retail_env: Environment) -> None:
    tools = _tools(retail_env, "malformed")
    customer = tools.session.rows("customer")[0]
    arguments = {"customer_id": customer["customer_id"]}
    ok, result = _call(tools, "get_customer", arguments)
    assert not ok and result["error"]["code"] == "malformed_response" and result["error"]["retryable"] is True
    clean = canonical_json(Session(retail_env).call("get_customer", arguments))
    partial = result["error"]["partial"]
    assert isinstance(partial, str) and clean.startswith(partial) and 0 < len(partial) < len(clean)
    assert tools.call_tool("get_customer", arguments) == (True, customer | {})


def test_writes_meet_only_failures_before_they_run(retail_env: Environment) -> None:
    drawn = NoiseProfile(tool=["stale", "malformed", "paginated"], level=1.0).episode("s")
    tools = NoisyTools(Session(retail_env), drawn)
    order = next(row for row in tools.session.rows("order") if row["status"] == "processing")
    ok, result = tools.call_tool("cancel_order", {"order_id": order["order_id"], "reason": "ordered_by_mistake"})
    assert ok and result and tools.events == []


def _struck(env: Environment, profile: NoiseProfile, seed: str) -> list[int]:
    tools = NoisyTools(Session(env), profile.episode(seed))
    for customer in tools.session.rows("customer")[:40]:
        tools.call_tool("get_customer", {"customer_id": customer["customer_id"]})
    return [event.call for event in tools.events]


def test_the_seed_fixes_the_draws_and_a_higher_level_strikes_where_a_lower_one_did(retail_env: Environment) -> None:
    low, high = SHIPPED["tools"].at(0.2), SHIPPED["tools"].at(0.6)
    assert _struck(retail_env, low, "retail-0001:0") == _struck(retail_env, low, "retail-0001:0")
    assert _struck(retail_env, low, "retail-0001:0") != _struck(retail_env, low, "retail-0001:1")
    assert set(_struck(retail_env, low, "x")) < set(_struck(retail_env, high, "x"))
    assert 0 < len(_struck(retail_env, low, "x")) < 40


def test_level_zero_and_share_zero_run_clean() -> None:
    assert SHIPPED["all"].at(0).episode("x") is None
    assert SHIPPED["all"].model_copy(update={"share": 0.0}).episode("x") is None
    share = SHIPPED["all"].model_copy(update={"share": 0.5})
    noisy = sum(share.episode(f"t:{sample}") is not None for sample in range(400))
    assert 150 < noisy < 250


def test_profiles_are_named_levelled_or_declared_in_a_file(tmp_path: Path) -> None:
    assert noise_profile("all@0.5") == SHIPPED["all"].at(0.5)
    assert noise_profile("user").user == SHIPPED["user"].user
    declared = tmp_path / "noise.yaml"
    declared.write_text("name: flaky\ntool: [transient, timeout]\nlevel: 0.4\nshare: 0.5\n")
    assert noise_profile(str(declared)) == NoiseProfile(
        name="flaky", tool=["transient", "timeout"], level=0.4, share=0.5
    )
    assert noise_profile(f"{declared}@1").level == 1.0


@pytest.mark.parametrize(
    ("spec", "content", "message"),
    [
        ("loud", None, "unknown noise profile 'loud': name one of tools, user, all (e.g. all@0.5)"),
        ("all@2", None, "noise level '2' in 'all@2' is not a number from 0 to 1: write e.g. all@0.5"),
        ("all@x", None, "noise level 'x' in 'all@x' is not a number from 0 to 1"),
        ("FILE", "tool: [flood]\n", "tool.0: Input should be 'transient', 'timeout', 'paginated'"),
        ("FILE", "levels: 1\n", "levels: Extra inputs are not permitted"),
    ],
)
def test_a_bad_profile_is_one_line_naming_the_fix(tmp_path: Path, spec: str, content: str | None, message: str) -> None:
    if content is not None:
        spec = str(tmp_path / "noise.yaml")
        Path(spec).write_text(content)
    with pytest.raises(UserInputError) as caught:
        noise_profile(spec)
    assert message in str(caught.value) and "\n" not in str(caught.value)

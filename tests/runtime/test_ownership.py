"""A session serving a task acts only for its person: writes naming another person's rows are refused.

Every shipped domain, generated for real; ownership is recomputed here in Python from the rows and the
relation chains, independently of the runtime's SQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from envforge.ir.blueprint import ActionSpec, Blueprint, ParamSpec
from envforge.ir.loading import load_blueprint
from envforge.ir.ownership import owner_paths
from envforge.runtime.apps.server import AppServer
from envforge.runtime.claims import golden_transcript
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.episode import EnvPackage, Episode, load_package
from envforge.runtime.errors import refusal_of
from envforge.runtime.gym_env import ToolUseEnv
from envforge.runtime.mcp_server import EnvServer
from envforge.runtime.opened_package import open_package
from envforge.runtime.oracle import run_task
from envforge.runtime.session import Session
from tests.conftest import BLUEPRINTS
from tests.runtime.probes import fields

Owners = dict[str, dict[str, str | None]]
"""entity -> row key -> the person key the row belongs to."""


def _cases() -> list[tuple[str, str, str]]:
    """(domain, write action, argument) for every argument naming a row that must be the person's."""
    cases = []
    for path in BLUEPRINTS:
        blueprint = load_blueprint(path)
        owned = owner_paths(blueprint)
        for action in blueprint.actions:
            for param in action.params:
                if param.ref in owned and not param.any_owner:
                    cases.append((blueprint.domain, action.name, param.name))
    return cases


CASES = _cases()


@pytest.fixture(scope="module")
def envs(packages: dict[str, Path]) -> dict[str, Environment]:
    return {domain: load_environment(open_package(package)) for domain, package in packages.items()}


@pytest.fixture(scope="module")
def env_packages(packages: dict[str, Path]) -> dict[str, EnvPackage]:
    return {domain: load_package(open_package(package)) for domain, package in packages.items()}


_OWNERS: dict[int, Owners] = {}


def _owners(env: Environment) -> Owners:
    if id(env) not in _OWNERS:
        _OWNERS[id(env)] = _compute_owners(env)
    return _OWNERS[id(env)]


def _compute_owners(env: Environment) -> Owners:
    blueprint = env.blueprint
    session = Session(env)
    rows = {name: {row[runtime.key]: row for row in session.rows(name)} for name, runtime in env.entities.items()}
    session.close()
    owners: Owners = {}
    for entity, path in owner_paths(blueprint).items():
        owners[entity] = {}
        for key, row in rows[entity].items():
            current: dict[str, Any] | None = row
            for relation in path:
                parent_key = None if current is None else current[relation.field]
                current = None if parent_key is None else rows[relation.parent][parent_key]
            owners[entity][key] = None if current is None else current[env.entities[blueprint.person].key]
    return owners


def _action(blueprint: Blueprint, name: str) -> ActionSpec:
    return next(action for action in blueprint.actions if action.name == name)


def _scalar(param: ParamSpec, blueprint: Blueprint) -> Any:
    if param.type == "enum":
        return (param.values or [""])[0]
    if param.type == "boolean":
        return False
    if param.type in ("integer", "number", "money"):
        low = param.minimum if param.minimum is not None else 1
        value = max(low, min(1, param.maximum if param.maximum is not None else 1))
        return int(value) if param.type == "integer" else float(value)
    if param.type == "date":
        return blueprint.clock.date().isoformat()
    if param.type == "datetime":
        return blueprint.clock.isoformat()
    return "x"


def _owned_by(owners: Owners, entity: str, person: str) -> list[str]:
    return sorted(key for key, owner in owners[entity].items() if owner == person)


def _arguments(env: Environment, action: ActionSpec, acting: str, target: tuple[str, str] | None) -> dict[str, Any]:
    """Arguments naming the acting person's rows (or, for `target` = (argument, key), that row)."""
    owners = _owners(env)
    arguments: dict[str, Any] = {}
    for param in action.params:
        if target is not None and param.name == target[0]:
            arguments[param.name] = target[1]
        elif param.ref is not None and param.ref in owners:
            if param.required or target is None:
                arguments[param.name] = _owned_by(owners, param.ref, acting)[0]
        elif param.ref is not None:
            arguments[param.name] = min(_keys(env, param.ref))
        elif param.required:
            arguments[param.name] = _scalar(param, env.blueprint)
    return arguments


def _keys(env: Environment, entity: str) -> list[str]:
    session = Session(env)
    try:
        return [row[env.entities[entity].key] for row in session.rows(entity)]
    finally:
        session.close()


def _people(env: Environment, action: ActionSpec, argument: str) -> tuple[str, str, str]:
    """(A, B, a row of B's for `argument`): A owns a row of every owned entity the action names."""
    owners = _owners(env)
    refs = {param.ref for param in action.params if param.ref in owners}
    people = sorted(key for key in owners[env.blueprint.person] if key is not None)
    acting = next(p for p in people if all(_owned_by(owners, entity, p) for entity in refs if entity is not None))
    entity = next(param.ref for param in action.params if param.name == argument)
    assert entity is not None
    row = next(key for key, owner in sorted(owners[entity].items()) if owner not in (acting, None))
    other = owners[entity][row]
    assert other is not None
    return acting, other, row


def test_every_shipped_domain_has_owned_write_arguments_to_check() -> None:
    assert {domain for domain, _, _ in CASES} == {load_blueprint(path).domain for path in BLUEPRINTS}


@pytest.mark.parametrize(("domain", "action_name", "argument"), CASES, ids=["-".join(case) for case in CASES])
def test_a_write_naming_another_persons_row_is_refused_and_changes_nothing(
    envs: dict[str, Environment], domain: str, action_name: str, argument: str
) -> None:
    env = envs[domain]
    action = _action(env.blueprint, action_name)
    acting, other, row = _people(env, action, argument)
    session = Session(env, person=acting)
    before, history = session.state_hash(), session.history()

    ok, result = session.call_tool(action_name, _arguments(env, action, acting, (argument, row)))

    entity = next(param.ref for param in action.params if param.name == argument)
    person = env.blueprint.person
    assert not ok
    assert result["error"] == {
        "code": "policy_violation",
        "message": f"{entity} '{row}' belongs to another {person}; act only for the {person} you serve",
        "tool": action_name,
        "field": argument,
        "policy": "ownership",
    }
    assert other != acting
    assert session.state_hash() == before
    # Nothing written; the attempt alone is logged, as a refusal on another person's row.
    after = session.history()
    assert after.writes == history.writes
    assert [(call.tool, call.kind, call.refusal) for call in after.calls] == [(action_name, "write", "ownership")]

    ok, result = session.call_tool(action_name, _arguments(env, action, acting, None))
    assert ok or refusal_of(result).get("policy") != "ownership", result


MISSING_ROW_CASES = [
    (domain, name, argument, other.name)
    for domain, name, argument in CASES
    for other in _action(load_blueprint(next(p for p in BLUEPRINTS if p.stem == domain)), name).params
    if other.ref is not None and other.name != argument
]
"""(domain, action, an argument naming another person's row, another reference argument of the action)."""


@pytest.mark.parametrize(
    ("domain", "action_name", "argument", "missing"), MISSING_ROW_CASES, ids=["-".join(c) for c in MISSING_ROW_CASES]
)
def test_a_write_naming_another_persons_row_is_refused_as_theirs_even_when_another_argument_names_no_row(
    envs: dict[str, Environment], domain: str, action_name: str, argument: str, missing: str
) -> None:
    # Binding the missing row first would refuse the call as not_found, and the history would not show that the run
    # tried another person's row (found by the call red team, tests/runtime/test_call_red_team.py).
    env = envs[domain]
    action = _action(env.blueprint, action_name)
    acting, _, row = _people(env, action, argument)
    session = Session(env, person=acting)

    ok, result = session.call_tool(action_name, {**_arguments(env, action, acting, (argument, row)), missing: "NONE-0"})

    assert not ok and refusal_of(result).get("policy") == "ownership", result
    assert [call.refusal for call in session.history().calls] == ["ownership"]


@pytest.mark.parametrize(("domain", "action_name", "argument"), CASES, ids=["-".join(case) for case in CASES])
def test_a_session_acting_for_no_one_checks_no_owner(
    envs: dict[str, Environment], domain: str, action_name: str, argument: str
) -> None:
    env = envs[domain]
    action = _action(env.blueprint, action_name)
    acting, _, row = _people(env, action, argument)
    session = Session(env)
    assert session.person is None
    ok, result = session.call_tool(action_name, _arguments(env, action, acting, (argument, row)))
    assert ok or refusal_of(result).get("policy") != "ownership", result


def test_the_person_survives_a_reset_and_act_for_changes_it(envs: dict[str, Environment]) -> None:
    env = envs["retail"]
    owners = _owners(env)
    order = next(key for key, owner in sorted(owners["order"].items()) if owner is not None)
    owner = owners["order"][order]
    assert owner is not None
    stranger = next(key for key in sorted(owners["customer"]) if key != owner)
    session = Session(env, person=stranger)
    session.reset()
    assert session.person == stranger
    ok, result = session.call_tool("cancel_order", {"order_id": order, "reason": "other"})
    assert not ok and refusal_of(result)["policy"] == "ownership"
    session.act_for(owner)
    ok, result = session.call_tool("cancel_order", {"order_id": order, "reason": "other"})
    assert ok or refusal_of(result).get("policy") != "ownership", result


def test_a_missing_row_is_still_not_found(envs: dict[str, Environment]) -> None:
    env = envs["retail"]
    session = Session(env, person=sorted(_owners(env)["customer"])[0])
    ok, result = session.call_tool("cancel_order", {"order_id": "ORD-999999", "reason": "other"})
    assert not ok and refusal_of(result)["code"] == "not_found"
    # A person's key too: a key of no one is not another person's (found by the call red team, a respelled key).
    ok, result = session.call_tool("grant_store_credit", {"customer_id": "cus-999999", "amount": 5})
    assert not ok and refusal_of(result)["code"] == "not_found"
    assert [call.refusal for call in session.history().calls] == ["not_found", "not_found"]


def test_a_banking_customer_may_transfer_to_another_customers_account(envs: dict[str, Environment]) -> None:
    env = envs["banking"]
    session = Session(env)
    accounts = {row["account_id"]: row for row in session.rows("account")}
    owners = _owners(env)["account"]
    source = next(a for a in accounts.values() if a["status"] == "active" and a["balance"] >= 10)
    destination = next(
        a for a in accounts.values() if a["status"] == "active" and owners[a["account_id"]] != source["customer_id"]
    )
    session.act_for(source["customer_id"])
    result = session.call(
        "transfer_funds",
        {"from_account_id": source["account_id"], "to_account_id": destination["account_id"], "amount": 1.0},
    )
    assert fields(result["transfer"])["to_account_id"] == destination["account_id"]
    assert [w.key for w in session.history().writes if w.entity == "account"].count(destination["account_id"])


@pytest.mark.parametrize("domain", sorted(load_blueprint(path).domain for path in BLUEPRINTS))
def test_every_tasks_oracle_succeeds_acting_for_the_tasks_person(
    env_packages: dict[str, EnvPackage], domain: str
) -> None:
    package = env_packages[domain]
    assert package.tasks
    for task in package.tasks.values():
        session = Session(package.env, person=task.scenario.person)
        for call in task.oracle:
            ok, result = session.call_tool(call.name, call.arguments)
            assert ok, (task.id, call, result)
        verdict = package.verify(task.id, session.history(), golden_transcript(task, package.env.blueprint))
        assert verdict.passed, (task.id, verdict.reasons)
        session.close()


def test_every_session_serving_a_task_acts_for_its_person(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["retail"]))
    task = package.task(package.task_ids[0])
    person = task.scenario.person

    assert Episode(package, task.id).session.person == person
    assert Episode(package, task.id, Session(package.env)).session.person == person

    gym_env = ToolUseEnv(package, task_id=task.id)
    gym_env.reset()
    assert gym_env.episode is not None and gym_env.episode.session.person == person

    server = EnvServer(package.env)
    assert server.episodes.open_free("free").session.person is None
    server.episodes.open_task(task, "bound")
    assert server.episodes.reset("bound").session.person == person

    app = AppServer(load_package(open_package(packages["retail"])), "web", "secret")
    with TestClient(app.app()) as client:
        headers = {"Authorization": "Bearer secret"}
        bound = client.post("/harness/episodes", json={"task": task.id}, headers=headers).json()
        free = client.post("/harness/episodes", json={"free": True}, headers=headers).json()
    assert (bound["person"], free["person"]) == (person, None)
    episode, unbound = app.episodes.get(bound["episode"]), app.episodes.get(free["episode"])
    assert episode.session.person == person and unbound.session.person is None
    episode.reset()
    assert episode.session.person == person


@pytest.mark.parametrize("via", ["session", "mcp"])
def test_run_task_replays_the_oracle_acting_for_the_tasks_person(packages: dict[str, Path], via: str) -> None:
    package = load_package(open_package(packages["retail"]))
    task_id = package.task_ids[0]
    replay = run_task(packages["retail"], task_id, via=via)
    assert replay.verdict.passed and all(ok for _, ok in replay.calls)

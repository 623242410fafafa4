"""Policies whose offer is an amount worked out from the records (a credit pro-rated by the hours of a delay, a
transfer less an overdraft fee): the golden run makes the computed offer, and a run that passes the amount
uncomputed fails."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from envforge.ir.tasks import TaskSpec, ToolCall
from envforge.runtime.claims import golden_transcript
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from tests.conftest import DefaultPackages

Row = dict[str, Any]


def _cap(session: Session, call: ToolCall) -> list[float]:
    """The disruption credit cap of a delayed flight, without the pro-rating by hours of delay."""
    return [150.0]


def _fee_not_counted(session: Session, call: ToolCall) -> list[float]:
    """What the account could send were the overdraft fee not counted: its balance plus its overdraft limit."""
    key = call.arguments.get("from_account_id") or call.arguments["account_id"]
    account = next(row for row in session.rows("account") if row["account_id"] == key)
    return [float(account["balance"]) + float(account["overdraft_limit"])]


UNCOMPUTED: dict[tuple[str, str], Callable[[Session, ToolCall], list[float]]] = {
    ("airline", "delay_credit_per_hour"): _cap,
    ("banking", "overdraft_fee"): _fee_not_counted,
}
"""Per domain and policy, the amounts an agent that skips the computation would pass, besides the one asked."""


def _offers_of(packages: Callable[[str], Path]) -> list[tuple[EnvPackage, TaskSpec]]:
    """The offer tasks of each computing policy, in the package of its domain."""
    offers = []
    for domain, policy in UNCOMPUTED:
        package = load_package(open_package(packages(domain)))
        tasks = [task for task in package.tasks.values() if task.intent == f"offer:{policy}"]
        assert tasks, (domain, policy)
        offers += [(package, task) for task in tasks]
    return offers


@pytest.fixture(scope="module")
def computed_offers(packages: dict[str, Path]) -> list[tuple[EnvPackage, TaskSpec]]:
    return _offers_of(packages.__getitem__)


def _played(package: EnvPackage, task: TaskSpec, calls: list[ToolCall]) -> Session:
    session = Session(package.env, person=task.scenario.person)
    for call in calls:
        session.call_tool(call.name, call.arguments)
    return session


def test_the_golden_run_makes_the_computed_offer_and_passes(
    computed_offers: list[tuple[EnvPackage, TaskSpec]],
) -> None:
    for package, task in computed_offers:
        session = _played(package, task, task.oracle)
        told = golden_transcript(task, package.env.blueprint)
        assert package.verify(task.id, session.history(), told).passed, task.id
        session.close()


def _failing_uncomputed(computed_offers: list[tuple[EnvPackage, TaskSpec]]) -> set[tuple[str, str]]:
    """Play each offer with the amount asked and with the amounts left uncomputed, asserting the verifier fails
    each; the rules whose computation changed the amount in some task."""
    skipped_computation = set()
    for package, task in computed_offers:
        offered, asked = task.oracle[-1], task.forbidden[0]
        rule = (package.env.blueprint.domain, task.policies[0])
        looked_up = _played(package, task, task.oracle[:-1])
        # Where the computation changes nothing (no overdraft limit to draw on, a delay long enough to reach the
        # cap), the uncomputed amount is the offer itself and is no mistake.
        uncomputed = [
            amount
            for amount in UNCOMPUTED[rule](looked_up, offered)
            if abs(amount - float(offered.arguments["amount"])) > 0.005
        ]
        looked_up.close()
        skipped_computation.update([rule] if uncomputed else [])
        told = golden_transcript(task, package.env.blueprint)
        for amount in [float(asked.arguments["amount"]), *uncomputed]:
            wrong = ToolCall(name=offered.name, arguments={**offered.arguments, "amount": amount})
            session = _played(package, task, [*task.oracle[:-1], wrong])
            assert not package.verify(task.id, session.history(), told).passed, (task.id, amount)
            session.close()
    return skipped_computation


def test_a_run_that_passes_the_amount_asked_or_left_uncomputed_fails(
    computed_offers: list[tuple[EnvPackage, TaskSpec]],
) -> None:
    assert _failing_uncomputed(computed_offers)


@pytest.mark.slow
def test_in_the_default_packages_each_rule_changes_some_offer_and_skipping_its_computation_fails(
    default_packages: DefaultPackages,
) -> None:
    assert _failing_uncomputed(_offers_of(default_packages.__getitem__)) == set(UNCOMPUTED)


def test_some_computed_offer_is_an_odd_figure_not_a_round_cap(
    computed_offers: list[tuple[EnvPackage, TaskSpec]],
) -> None:
    for domain, policy in UNCOMPUTED:
        amounts = [
            float(task.oracle[-1].arguments["amount"])
            for package, task in computed_offers
            if package.env.blueprint.domain == domain and task.policies[0] == policy
        ]
        assert any(round(amount * 100) % 1000 for amount in amounts), (domain, amounts)

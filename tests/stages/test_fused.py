"""The shipped fused packages: tasks that cross domains, said the way people say them, and the bridges.

The every-domain tests (gate adversaries, task quality, clarification, Gym replay, check, apps) cover the fused
packages too, through `tests.conftest.BLUEPRINTS`; this file holds what only a fused package has.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from envforge.ir.compose import task_domains
from envforge.ir.tasks import ToolCall
from envforge.runtime.episode import load_package
from envforge.runtime.gym_env import ToolUseEnv, action_for_call
from envforge.runtime.opened_package import open_package
from tests.conftest import FUSED_BLUEPRINTS

FUSED = [path.stem for path in FUSED_BLUEPRINTS]
BRIDGES = {
    "clinic_banking": "pay_clinic_invoice_from_bank_account",
    "airline_banking": "settle_airline_baggage_claim_to_bank_account",
}


def test_both_fused_pairs_are_shipped() -> None:
    assert FUSED == ["airline_banking", "clinic_banking"]


@pytest.mark.parametrize("domain", FUSED)
def test_at_least_30_percent_of_the_tasks_cross_domains(packages: dict[str, Path], domain: str) -> None:
    package = load_package(open_package(packages[domain]))
    blueprint = package.env.blueprint
    tasks = [package.task(task_id) for task_id in package.task_ids]
    crossing = [task for task in tasks if len(task.domains) > 1]
    assert len(crossing) >= 0.3 * len(tasks), (len(crossing), len(tasks))
    members = {part.domain for part in blueprint.composed_of}
    for task in tasks:
        # what a task records is what its calls touch, and never a domain the package was not built from
        assert task.domains == task_domains(blueprint, [*task.oracle, *task.forbidden])
        assert set(task.domains) <= members
    # single-domain tasks of both domains remain: fusion adds to the mix, it does not replace it
    assert {tuple(task.domains) for task in tasks} >= {(member,) for member in members}


@pytest.mark.parametrize("domain", FUSED)
def test_the_bridge_is_a_task_and_its_oracle_crosses_the_link(packages: dict[str, Path], domain: str) -> None:
    package = load_package(open_package(packages[domain]))
    bridged = [package.task(t) for t in package.task_ids if BRIDGES[domain] in {c.name for c in package.task(t).oracle}]
    assert bridged, f"no task of {domain} uses its bridge"
    linked = package.env.blueprint.linked_persons
    for task in bridged:
        assert len(task.domains) == 2
        names = [call.name for call in task.oracle]
        # the agent finds the person's record in the second domain before it can name their account there
        assert any(name == f"list_{entity}s" for name in names for entity in linked), names


@pytest.mark.parametrize("domain", FUSED)
def test_requests_name_things_as_people_do_never_by_fused_names(packages: dict[str, Path], domain: str) -> None:
    package = load_package(open_package(packages[domain]))
    prefixes = [part.prefix for part in package.env.blueprint.composed_of]
    linked = [entity.replace("_", " ") for entity in package.env.blueprint.linked_persons]
    for task_id in package.task_ids:
        text = package.task(task_id).instruction
        assert not re.search(rf"\b({'|'.join(prefixes)})_[a-z]", text), text
        # the user's own record in the second domain is "my account", never "my bank customer"
        assert not any(noun in text for noun in linked), text
        assert "my customer" not in text and "my passenger" not in text, text


def test_finding_the_user_through_their_record_in_the_second_domain_identifies_them(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["clinic_banking"]))
    task = next(
        task
        for task in (package.task(task_id) for task_id in package.task_ids)
        if "banking" in task.domains
        and task.verifier.identity is not None
        and task.oracle[0].name == "find_clinic_patient_by_email"
    )
    email = task.oracle[0].arguments["email"]
    through_bank = [ToolCall(name="find_bank_customer_by_email", arguments={"email": email}), *task.oracle[1:]]
    skipped = list(task.oracle[1:])
    verdicts = {}
    for name, calls in (("through_bank", through_bank), ("skipped", skipped)):
        env = ToolUseEnv(package, task_id=task.id)
        env.reset()
        for call in calls:
            env.step(action_for_call(call.name, call.arguments))
        _, reward, _, _, info = env.step(package.golden_message(task.id))
        verdicts[name] = (reward, info["verdict"]["components"]["authenticated_first"])
    assert verdicts == {"through_bank": (1.0, True), "skipped": (0.0, False)}

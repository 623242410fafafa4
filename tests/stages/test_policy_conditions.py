"""Policies with several conditions: tasks on both sides of each boundary, the conditions each verdict turns
on, and the report's count of them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.ir.verification import weighing_share
from envforge.runtime.claims import golden_transcript
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.stages.tasks.kinds.allowance import turning_of
from tests.conftest import BLUEPRINTS, DefaultPackages

WEIGHING_FLOOR = 0.2
"""The issue's acceptance: a fifth of the policy tasks of every shipped and fused domain turn on two or more
conditions."""


@pytest.fixture(scope="module")
def policy_tasks(packages: dict[str, Path]) -> list[tuple[EnvPackage, TaskSpec]]:
    """Every policy task of every shipped domain's test package, with its package."""
    loaded = [load_package(open_package(path)) for _, path in sorted(packages.items())]
    return [(package, task) for package in loaded for task in package.tasks.values() if task.policies]


def _played(package: EnvPackage, task: TaskSpec, calls: list[ToolCall]) -> Session:
    session = Session(package.env, person=task.scenario.person)
    for call in calls:
        ok, result = session.call_tool(call.name, call.arguments)
        assert ok, (task.id, call, result)
    return session


def _judged(task: TaskSpec) -> tuple[ToolCall, list[ToolCall]]:
    """The request the task's policies judge, and the calls after which they judge it: an allowance's write after
    its lookups, an offer's request as asked after its lookups, a refusal's forbidden request after the golden
    run (the allowed request beside it is done first)."""
    if task.intent.startswith("allow:"):
        return task.oracle[-1], task.oracle[:-1]
    if task.intent.startswith("offer:"):
        return task.forbidden[0], task.oracle[:-1]
    return task.forbidden[0], task.oracle


def test_each_policy_task_records_the_conditions_its_verdict_turns_on(
    policy_tasks: list[tuple[EnvPackage, TaskSpec]],
) -> None:
    assert policy_tasks
    for package, task in policy_tasks:
        judged, before = _judged(task)
        session = _played(package, task, before)
        verdicts = session.verdicts(judged.name, judged.arguments)
        holds = {verdict.policy: verdict.holds for verdict in verdicts}
        assert all(holds[policy] == task.intent.startswith("allow:") for policy in task.policies), task.id
        assert task.conditions == list(turning_of(verdicts, task.policies)), task.id
        session.close()


def test_a_request_allowed_only_on_two_conditions_is_solved_by_its_oracle_and_failed_by_refusing_it(
    policy_tasks: list[tuple[EnvPackage, TaskSpec]],
) -> None:
    allowances = [(package, task) for package, task in policy_tasks if task.intent.startswith("allow:")]
    assert allowances
    for package, task in allowances:
        assert len(task.conditions) >= 2 and not task.forbidden and not task.verifier.refused, task.id
        session = _played(package, task, task.oracle)
        told = golden_transcript(task, package.env.blueprint)
        assert package.verify(task.id, session.history(), told).passed, task.id
        rule = next(policy.text for policy in package.env.blueprint.policies if policy.id == task.policies[0])
        refusing = _played(package, task, task.oracle[:-1])
        refused = Transcript(answer=f"I could not do that: {rule}")
        assert not package.verify(task.id, refusing.history(), refused).passed, task.id
        session.close()
        refusing.close()


def test_a_request_refused_on_two_conditions_is_refused_by_the_golden_run_and_failed_by_doing_it(
    policy_tasks: list[tuple[EnvPackage, TaskSpec]],
) -> None:
    refusals = [
        (package, task)
        for package, task in policy_tasks
        if task.intent.startswith("refuse:") and len(task.conditions) >= 2
    ]
    assert refusals
    for package, task in refusals:
        session = _played(package, task, task.oracle)
        told = golden_transcript(task, package.env.blueprint)
        assert package.verify(task.id, session.history(), told).passed, task.id
        ok, _ = session.call_tool(task.forbidden[0].name, task.forbidden[0].arguments)
        assert not ok or not package.verify(task.id, session.history(), told).passed, task.id
        session.close()


@pytest.mark.slow
@pytest.mark.parametrize("domain", [path.stem for path in BLUEPRINTS])
def test_a_fifth_of_the_policy_tasks_of_every_shipped_domain_turn_on_two_or_more_conditions(
    default_packages: DefaultPackages, domain: str
) -> None:
    report = json.loads((default_packages[domain] / "report.json").read_text())
    per_task = {int(conditions): count for conditions, count in report["mix"]["conditions_per_policy_task"].items()}
    assert weighing_share(per_task) >= WEIGHING_FLOOR, per_task
    assert "Conditions per policy task" in (default_packages[domain] / "report.md").read_text()
    assert report["gate"]["mutant_false_positives"] == 0
    tasks = [json.loads(line) for line in (default_packages[domain] / "tasks.jsonl").read_text().splitlines()]
    assert any(task["intent"].startswith("allow:") for task in tasks)

"""Synthesized tasks: the requested count, the right mix, user-side wording, and a report of shortfalls."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from envforge.hashing import canonical_json
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_tasks
from envforge.stages.generate import run_pipeline
from tests.conftest import REPO, DefaultPackages, slow_domains

RETAIL = REPO / "blueprints" / "retail.yaml"


def test_the_tasks_option_yields_exactly_that_many_distinct_accepted_tasks(tmp_path: Path) -> None:
    run = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=600, tasks=25))
    tasks = load_tasks(open_package(run.package))
    assert len(tasks) == 25
    assert len({canonical_json([[c.model_dump() for c in t.oracle], t.instruction]) for t in tasks.values()}) == 25
    report = json.loads((run.package / "report.json").read_text())
    assert report["tasks_accepted"] == 25 and report["shortfall"] == ""
    assert {task.kind for task in tasks.values()} == {"write", "multi_write", "read"}


def test_instructions_never_leak_the_users_internal_key_and_oracles_start_by_finding_the_user(
    retail_package: Path,
) -> None:
    for task in load_tasks(open_package(retail_package)).values():
        assert task.scenario.person not in task.instruction
        assert task.oracle[0].name in ("find_customer_by_email", "list_customers")
        writes = sum(
            call.name not in ("find_customer_by_email",) and not call.name.startswith(("get_", "list_"))
            for call in task.oracle
        )
        assert writes == task.difficulty.writes
        assert task.difficulty.chain_length == len(task.oracle)
        # A question is a read task of its own, or the follow-up a user asks once their write is done.
        asked_after_a_write = "+ask:" in task.intent
        assert (task.kind == "read" or asked_after_a_write) == (task.expected_answer is not None), task.id
        if asked_after_a_write:
            assert task.kind == "write" and any(reaction.when == "done" for reaction in task.scenario.script)
        stated_keys = set(re.findall(r"\b[A-Z]{2,5}-\d{6}\b", task.instruction))
        assert stated_keys <= set(task.scenario.known.get("record_ids", [])), task.instruction


def test_asking_for_more_tasks_than_the_state_allows_says_why(tmp_path: Path) -> None:
    run = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=60, tasks=400))
    report = json.loads((run.package / "report.json").read_text())
    assert report["tasks_accepted"] < 400
    assert report["shortfall"].startswith(f"{report['tasks_accepted']} of 400 requested tasks accepted")
    assert "Shortfall:" in (run.package / "report.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("domain", slow_domains("tasks"))
def test_every_shipped_domain_yields_150_gated_tasks_with_no_false_positive_or_negative(
    default_packages: DefaultPackages, domain: str
) -> None:
    report = json.loads((default_packages[domain] / "report.json").read_text())
    assert report["tasks_accepted"] >= 150
    # A third of the tasks now hinge on a policy (kind `write`), so the other kinds hold a smaller share.
    assert report["accepted_by_kind"]["multi_write"] >= 20
    assert report["accepted_by_kind"]["read"] >= 25
    assert report["gate"]["mutant_false_positives"] == 0
    assert report["gate"]["golden_false_negatives"] == 0
    assert report["gate"]["mutants"] - report["gate"]["equivalent_mutants"] >= 3 * report["tasks_accepted"]


ONE_ENTITY = """\
schema_version: 1
domain: members
title: Members
description: A club whose only records are its members.
clock: '2026-03-16T09:00:00'
person: member
entities:
  - name: member
    description: A club member.
    rows: 40
    fields:
      - {name: member_id, type: id, prefix: MEM, description: Key of the member.}
      - {name: first_name, type: string, searchable: true, description: Given name.}
      - {name: last_name, type: string, searchable: true, description: Family name.}
      - {name: email, type: string, unique: true, searchable: true, max_length: 120, description: Email address.}
      - {name: nickname, type: string, max_length: 40, description: What the club calls them.}
actions:
  - name: set_nickname
    description: Change a member's nickname.
    entity: member
    params:
      - {name: member_id, type: string, ref: member, required: true, description: Key of the member.}
      - {name: nickname, type: string, max_length: 40, required: true, description: The new nickname.}
    bind:
      - {name: member, entity: member, key: args.member_id}
    effects:
      - update: member
        set: {nickname: args.nickname}
    returns: [member]
personas:
  - {name: regular, description: A long-time member., knows: [first_name, last_name, email]}
agent_instructions: You help club members with their records.
"""


def test_a_blueprint_whose_only_entity_is_the_user_gets_write_tasks_and_no_crash(tmp_path: Path) -> None:
    """Read tasks ask about a record the user has; with none besides the user, only writes are drawn."""
    blueprint = tmp_path / "members.yaml"
    blueprint.write_text(ONE_ENTITY, encoding="utf-8")
    run = run_pipeline(blueprint, tmp_path / "out", GenerateConfig(rows=40, tasks=5))
    tasks = load_tasks(open_package(run.package))
    assert tasks and {task.kind for task in tasks.values()} <= {"write", "multi_write"}

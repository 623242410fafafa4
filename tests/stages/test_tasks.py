"""Synthesized tasks: the requested count, the right mix, user-side wording, and a report of shortfalls."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from envforge.hashing import canonical_json
from envforge.pipeline.dag import GenerateConfig
from envforge.pipeline.runner import run_pipeline
from envforge.runtime.tasks import load_tasks
from tests.conftest import BLUEPRINTS, REPO

RETAIL = REPO / "blueprints" / "retail.yaml"


def test_the_tasks_option_yields_exactly_that_many_distinct_accepted_tasks(tmp_path: Path) -> None:
    run = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=600, tasks=25))
    tasks = load_tasks(run.package)
    assert len(tasks) == 25
    assert len({canonical_json([[c.model_dump() for c in t.oracle], t.instruction]) for t in tasks.values()}) == 25
    report = json.loads((run.package / "report.json").read_text())
    assert report["tasks_accepted"] == 25 and report["shortfall"] == ""
    assert {task.kind for task in tasks.values()} == {"write", "multi_write", "read"}


def test_instructions_never_leak_the_users_internal_key_and_oracles_start_by_finding_the_user(
    retail_package: Path,
) -> None:
    for task in load_tasks(retail_package).values():
        assert task.scenario.person not in task.instruction
        assert task.oracle[0].name in ("find_customer_by_email", "list_customers")
        writes = sum(
            call.name not in ("find_customer_by_email",) and not call.name.startswith(("get_", "list_"))
            for call in task.oracle
        )
        assert writes == task.difficulty.writes
        assert task.difficulty.chain_length == len(task.oracle)
        assert (task.kind == "read") == (task.expected_answer is not None)
        stated_keys = set(re.findall(r"\b[A-Z]{2,5}-\d{6}\b", task.instruction))
        assert stated_keys <= set(task.scenario.known.get("record_ids", [])), task.instruction


def test_asking_for_more_tasks_than_the_state_allows_says_why(tmp_path: Path) -> None:
    run = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=60, tasks=400))
    report = json.loads((run.package / "report.json").read_text())
    assert report["tasks_accepted"] < 400
    assert report["shortfall"].startswith(f"{report['tasks_accepted']} of 400 requested tasks accepted")
    assert "Shortfall:" in (run.package / "report.md").read_text()


@pytest.mark.slow
@pytest.mark.parametrize("blueprint", BLUEPRINTS, ids=lambda path: path.stem)
def test_every_shipped_domain_yields_150_gated_tasks_with_no_false_positive_or_negative(
    blueprint: Path, tmp_path: Path
) -> None:
    run = run_pipeline(blueprint, tmp_path, GenerateConfig())
    report = json.loads((run.package / "report.json").read_text())
    assert report["tasks_accepted"] >= 150
    assert report["accepted_by_kind"]["multi_write"] >= 30
    assert report["accepted_by_kind"]["read"] >= 30
    assert report["gate"]["mutant_false_positives"] == 0
    assert report["gate"]["golden_false_negatives"] == 0
    assert report["gate"]["mutants"] - report["gate"]["equivalent_mutants"] >= 3 * report["tasks_accepted"]

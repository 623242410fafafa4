"""Paraphrases keep every fact of the task, or the procedural instruction is kept."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from envforge.files import read_files
from envforge.ir.tasks import TaskSpec
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.synthesis.facts import RowIndex, check_rewording, task_facts
from envforge.synthesis.review import Reviewer, index_rows
from tests.synthesis.endpoints import Request, answer, endpoint, question
from tests.synthesis.scenario import DOMAIN

ORIGINAL = (
    "Hello. This is Ana Diaz, my email is ana.diaz@example.com. Please cancel my order (placed on: 2026-02-22) "
    "with reason: found cheaper, and pay 560.10 on invoice INV-1234."
)
FACTS = [["Ana"], ["Diaz"], ["ana.diaz@example.com"], ["2026-02-22"], ["found cheaper", "found_cheaper"], ["560.10"]]


@pytest.mark.parametrize(
    ("rewording", "problem"),
    [
        (
            "Ana Diaz here (ana.diaz@example.com). Cancel my order placed on 2026-02-22, reason: found cheaper; "
            "and pay $560.10 on INV-1234.",
            None,
        ),
        (
            "Ana Diaz, ana.diaz@example.com. Cancel the order from February, found cheaper, pay 560.10 on INV-1234.",
            "dropped or changed '2026-02-22'",
        ),
        (
            "Ana Diaz, ana.diaz@example.com: cancel my 2026-02-22 order, found cheaper, pay 560.00 on INV-1234.",
            "dropped or changed '560.10'",
        ),
        (
            "Ana Diaz, ana.diaz@example.com, cancel my order from 2026-02-22 (found cheaper), pay 560.10 on "
            "INV-1234 and INV-9999.",
            "added 'INV-9999', which the original does not say",
        ),
        (
            "Ana Diaz, ana.diaz@example.com. Cancel my order of 2026-02-22, found cheaper, pay 560.10 on INV-1234. "
            "Cancel my order of 2026-02-22, found cheaper, pay 560.10 on INV-1234.",
            "says 'Cancel my order of 2026-02-22, found cheaper, pay 560.10 on INV-1234.' twice",
        ),
    ],
    ids=["kept", "dropped_date", "changed_amount", "invented_key", "repeated_request"],
)
def test_a_rewording_is_accepted_only_with_every_fact_kept_and_none_added(rewording: str, problem: str | None) -> None:
    assert check_rewording(ORIGINAL, rewording, FACTS) == problem


def test_a_rewording_much_longer_than_the_original_is_refused() -> None:
    padded = ORIGINAL + " Yes, I can do that for you: I will cancel the order and pay the invoice right away." * 2
    assert check_rewording(ORIGINAL, padded, FACTS) == f"is {len(padded)} characters long where the original has 169"


@pytest.fixture(scope="module")
def staged(replayed: tuple[Path, dict[str, Any]]) -> tuple[list[TaskSpec], RowIndex, Path]:
    """The gate-accepted tasks before review (procedural wording), and the rows of the initial state."""
    package, _ = replayed
    run_dir = package.parent / ".cache" / DOMAIN
    accepted = [
        TaskSpec.model_validate_json(line)
        for line in (run_dir / "verifiers" / "accepted.jsonl").read_text().splitlines()
    ]
    graph = ToolGraphArtifact.from_files(read_files(run_dir / "toolgraph")).toolgraph
    state = StateArtifact.from_files(read_files(run_dir / "state"))
    return accepted, index_rows(load_environment(open_package(package)).blueprint, graph, state), run_dir


def test_the_facts_of_a_task_are_what_the_user_states_and_the_values_the_oracle_uses(
    staged: tuple[list[TaskSpec], RowIndex, Path],
) -> None:
    accepted, rows, _ = staged
    for task in accepted:
        facts = [fact[0] for fact in task_facts(task, rows)]
        stated = [str(value) for value in task.scenario.known.values() if str(value) in task.instruction]
        said = [str(v) for call in task.oracle for v in call.arguments.values() if str(v) in task.instruction]
        assert set(stated) <= set(facts), task.id
        assert {value for value in said if len(value) >= 2} <= set(facts), task.id
        assert all(fact in task.instruction for fact in facts), task.id
        # What the user holds back is no fact of the instruction: a paraphrase cannot keep what is not there.
        assert not {str(value) for value in task.scenario.details.values()} & set(facts), task.id


def test_the_shipped_instruction_is_the_paraphrase_only_where_it_kept_every_fact(
    replayed: tuple[Path, dict[str, Any]], staged: tuple[list[TaskSpec], RowIndex, Path]
) -> None:
    package, _ = replayed
    accepted, rows, _ = staged
    procedural = {task.id: task for task in accepted}
    shipped = {json.loads(line)["id"]: json.loads(line) for line in (package / "tasks.jsonl").read_text().splitlines()}
    reviews = json.loads((package / "synthesis.json").read_text())["reviews"]
    assert {review["task_id"] for review in reviews if review["barrier_agreed"]} == set(shipped)
    for review in reviews:
        if review["task_id"] not in shipped:
            continue
        original = procedural[review["task_id"]]
        instruction = shipped[review["task_id"]]["instruction"]
        if review["paraphrased"]:
            assert instruction != original.instruction
            assert check_rewording(original.instruction, instruction, task_facts(original, rows)) is None
        else:
            assert review["paraphrase_problem"]
            assert instruction == original.instruction
    synthesis = json.loads((package / "synthesis.json").read_text())
    assert synthesis["paraphrased"] + synthesis["kept_procedural"] == synthesis["tasks_reviewed"] == len(reviews)


def test_a_paraphrase_that_changes_a_value_keeps_the_procedural_instruction(
    replayed: tuple[Path, dict[str, Any]], staged: tuple[list[TaskSpec], RowIndex, Path]
) -> None:
    """Constructed: the paraphrase swaps the pet's name for another; the barrier answer is constructed to agree."""
    package, _ = replayed
    accepted, rows, _ = staged
    task = next(t for t in accepted if str(t.oracle[-1].arguments.get("pet_name", "-")) in t.instruction)
    name = task.oracle[-1].arguments["pet_name"]

    def script(request: Request) -> str | None:
        if question(request).startswith("The user:"):
            return answer({"message": task.instruction.replace(name, "Rex")})
        return answer({"changes": [{"target": "pet_name.pet_name", "value": name}]})

    env = load_environment(open_package(package))
    reviewer = Reviewer(endpoint(script, recorded=None), env.blueprint, env.toolgraph, rows, "vllm")
    shipped, review = asyncio.run(reviewer.review(task))
    assert shipped.instruction == task.instruction
    assert (review.paraphrased, review.paraphrase_problem) == (False, f"dropped or changed '{name}'")
    assert review.barrier_agreed

"""The information barrier: a separate check, written from the instruction alone, must agree with the verifier."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from envforge.ir.answers import AnswerSpec
from envforge.ir.tasks import Difficulty, RowChange, TaskSpec, ToolCall, UserScenario, VerifierSpec
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.synthesis.barrier import Schemas, barrier_messages, compare, same_value
from envforge.synthesis.facts import RowIndex
from envforge.synthesis.run import NoTaskSurvivedError, SynthesisConfig, synthesize_environment
from tests.synthesis.endpoints import Request, answer, endpoint, question
from tests.synthesis.scenario import DESCRIPTION, DOMAIN, MODEL, ROWS, TASKS

ROWS_INDEX = RowIndex(by_key={}, by_entity={"order": [{"order_id": "ORD-1", "status": "pending", "total": 12.5}]})


def task(changes: list[RowChange], answer_text: str | None = None) -> TaskSpec:
    return TaskSpec(
        id="shop-0001",
        kind="read" if answer_text is not None else "write",
        instruction="Please cancel my order (placed on: 2026-02-22).",
        scenario=UserScenario(persona="reader", person="CUS-1", known={"email": "a@example.com"}),
        oracle=[ToolCall(name="cancel_order", arguments={"order_id": "ORD-1"})],
        expected_answer=answer_text,
        difficulty=Difficulty(chain_length=1, writes=1, distractors=0, band="easy"),
        verifier=VerifierSpec(
            task_id="shop-0001",
            expected_changes=changes,
            answer=None if answer_text is None else AnswerSpec(type="text", value=answer_text),
        ),
    )


CANCEL = [RowChange(entity="order", key="ORD-1", before={"status": "pending"}, after={"status": "cancelled"})]


@pytest.mark.parametrize(
    ("expected", "declared", "same"),
    [
        (1, True, True),
        (0, True, False),
        (12.5, "12.50", True),
        ("found_cheaper", "Found cheaper", True),
        ("a", "b", False),
    ],
)
def test_declared_values_compare_as_the_state_stores_them(expected: Any, declared: Any, same: bool) -> None:
    assert same_value(expected, declared) is same


@pytest.mark.parametrize(
    ("claim", "expected", "reason"),
    [
        ({"changes": [{"target": "order.status", "value": "cancelled"}]}, CANCEL, None),
        ({"changes": [{"target": "order.status", "value": "Cancelled"}]}, CANCEL, None),
        (
            {"changes": [{"target": "order.status", "value": "shipped"}]},
            CANCEL,
            "the check declares order.status = 'shipped'; the verifier expects 'cancelled'",
        ),
        (
            {"changes": [{"target": "order.total", "value": 0}]},
            CANCEL,
            "the check declares a change of order.total; the verifier changes order.status",
        ),
        (
            {"question_about": "order.status"},
            CANCEL,
            "the check declares a question about order.status; the verifier expects changes to order.status",
        ),
    ],
    ids=["same", "case_insensitive", "other_value", "other_column", "question_for_a_write"],
)
def test_a_declared_change_agrees_only_when_the_verifier_expects_it(
    claim: dict[str, Any], expected: list[RowChange], reason: str | None
) -> None:
    assert compare(claim, task(expected), ROWS_INDEX) == reason


@pytest.mark.parametrize(
    ("claim", "answer_text", "reason"),
    [
        ({"question_about": "order.total"}, "12.50", None),
        ({"question_about": "count:order"}, "1", None),
        (
            {"question_about": "order.status"},
            "12.50",
            "the check declares the answer comes from order.status; no order has status '12.50'",
        ),
        (
            {"changes": [{"target": "order.status", "value": "cancelled"}]},
            "12.50",
            "the check declares changes (order.status = 'cancelled'); the verifier expects an answer and no change",
        ),
    ],
    ids=["field", "count", "other_field", "change_for_a_question"],
)
def test_a_declared_question_agrees_when_its_column_can_hold_the_expected_answer(
    claim: dict[str, Any], answer_text: str, reason: str | None
) -> None:
    assert compare(claim, task([], answer_text), ROWS_INDEX) == reason


def test_the_checker_sees_the_instruction_and_schemas_but_nothing_of_the_oracle_or_verifier(
    replayed: tuple[Path, dict[str, Any]],
) -> None:
    package, _ = replayed
    env = load_environment(open_package(package))
    schemas = Schemas.of(env.blueprint, env.toolgraph.tools)
    shipped = [TaskSpec.model_validate_json(line) for line in (package / "tasks.jsonl").read_text().splitlines()]
    for spec in shipped:
        messages = barrier_messages(spec, schemas)
        blind = spec.model_copy(update={"oracle": [], "scenario": spec.scenario.model_copy(update={"person": "?"})})
        blind = blind.model_copy(update={"verifier": VerifierSpec(task_id=spec.id, expected_changes=[])})
        assert barrier_messages(blind, schemas) == messages
        text = json.dumps(messages)
        assert spec.scenario.person not in text
        # Keys and dates reach the checker only where the user states them.
        assert all(
            str(value) not in text or str(value) in spec.instruction
            for call in spec.oracle
            for value in call.arguments.values()
            if "-" in str(value)
        )


def test_a_task_whose_check_disagrees_is_dropped_as_barrier_disagreement_and_backfilled(
    replayed: tuple[Path, dict[str, Any]],
) -> None:
    """Real SmolLM2 answers: its checks of five of the eight candidates name another pet (the first writes
    'Julie Rogers' as 'julie_rossell'); the other three ship, one short of the four asked for."""
    package, _ = replayed
    report = json.loads((package / "report.json").read_text())
    synthesis = json.loads((package / "synthesis.json").read_text())
    dropped = [result for result in report["tasks"] if result["reason"].startswith("barrier_disagreement:")]
    assert [result["task_id"] for result in dropped] == [f"{DOMAIN}-{index:04d}" for index in (1, 2, 3, 4, 7)]
    assert dropped[0]["reason"] == (
        "barrier_disagreement: the check declares pet_name.pet_name = 'julie_rossell'; the verifier expects 'Julie Rogers'"
    )
    assert report["tasks_dropped"] == {"barrier_disagreement": 5}
    assert (synthesis["barrier_agreed"], synthesis["barrier_dropped"]) == (TASKS - 1, 5)
    shipped = [json.loads(line)["id"] for line in (package / "tasks.jsonl").read_text().splitlines()]
    assert shipped == [f"{DOMAIN}-{index:04d}" for index in (5, 6, 8)]
    assert sorted(path.stem for path in (package / "verifiers").glob("*.py")) == shipped


def test_when_every_check_disagrees_no_package_is_written_and_one_line_says_why(tmp_path: Path) -> None:
    """Constructed: every barrier answer names a pet nobody asked for; every paraphrase is unusable."""

    def disagree(request: Request) -> str | None:
        if question(request).startswith("Tables:"):
            return answer({"changes": [{"target": "pet_name.pet_name", "value": "Nobody"}]})
        if question(request).startswith("The user:"):
            return answer({"message": "x"})
        return None

    config = SynthesisConfig(description=DESCRIPTION, model=MODEL, base_url="unused", drafts=tmp_path / "drafts")
    with pytest.raises(NoTaskSurvivedError) as raised:
        synthesize_environment(
            config, tmp_path / "out", GenerateConfig(rows=ROWS, tasks=TASKS), client=endpoint(disagree)
        )
    saved = tmp_path / "drafts" / f"{DOMAIN}-review.json"
    assert str(raised.value) == (
        f"no task survived for '{DOMAIN}': the information barrier disagreed on all 8 tasks (first, {DOMAIN}-0001: "
        "the check declares pet_name.pet_name = 'Nobody'; the verifier expects 'Julie Rogers'); "
        f"no package was written to {tmp_path / 'out'}; the review is saved in {saved}"
    )
    assert not (tmp_path / "out" / DOMAIN).exists()
    assert json.loads(saved.read_text())["barrier_dropped"] == 8

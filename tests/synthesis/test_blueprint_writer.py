"""The blueprint writer: step answers assembled into a valid blueprint, errors sent back, rejection in one line.

The invalid answers here are constructed (a real model rarely produces them under grammar-constrained
decoding); every other answer is the real SmolLM2 response recorded in tests/synthesis/recorded.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from envforge.files import write_file_atomic
from envforge.ir.loading import load_blueprint_text
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.environment import dump_blueprint
from envforge.stages.generate import run_pipeline
from envforge.synthesis.assemble import build_blueprint
from envforge.synthesis.writer import BlueprintRejectedError, BlueprintWriter, Repair, WrittenBlueprint
from envforge.validators.checks import run_checks
from envforge.validators.loaded_package import open_for_check
from tests.conftest import envforge_cli
from tests.synthesis.endpoints import Request, answer, endpoint, is_repair, question, recorded_answer, user_turns
from tests.synthesis.scenario import DESCRIPTION, generate_args

PET_NAME_COLUMNS = "List 1 to 5 columns of a pet_name"
ACTIONS = "Choose 1 to 4 different actions"
RESERVED = "the field name 'class' is a reserved word in expressions; choose another name"


def reserved_column(request: Request) -> str | None:
    """Constructed: the pet_name columns, first answered with a column named `class`; a repair gets the real answer."""
    if not question(request).startswith(PET_NAME_COLUMNS):
        return None
    if is_repair(request):
        return recorded_answer(request)
    return answer({"fields": [{"name": "class", "type": "string", "description": "Kind of pet."}]})


def read_tool_name(request: Request) -> str | None:
    """Constructed: an action named like a READ tool, which the step's schema forbids; a repair gets the real answer."""
    if not question(request).startswith(ACTIONS):
        return None
    if is_repair(request):
        return recorded_answer(request)
    bad = {"kind": "set_field", "target": "pet.email", "name": "get_pet", "description": "Look a pet up."}
    return answer({"actions": [bad]})


def always_reserved(request: Request) -> str | None:
    """Constructed: every answer about pet_name columns names a column `class`."""
    if not question(request).startswith(PET_NAME_COLUMNS):
        return None
    return answer({"fields": [{"name": "class", "type": "string", "description": "Kind of pet."}]})


def write(script: Any, tmp_path: Path, *, rounds: int = 3, cache: Path | None = None) -> tuple[WrittenBlueprint, Any]:
    client = endpoint(script, cache=cache)
    writer = BlueprintWriter(client, DESCRIPTION, repair_rounds=rounds, drafts=tmp_path / "drafts")
    return asyncio.run(writer.write()), client


def test_recorded_answers_make_the_blueprint_of_the_replayed_package(
    tmp_path: Path, replayed: tuple[Path, dict[str, Any]]
) -> None:
    written, client = write(None, tmp_path)
    assert written.repairs == []
    assert len(client.asked) == written.steps == 8
    assert dump_blueprint(written.blueprint) == (replayed[0] / "blueprint.yaml").read_text()


def test_a_reserved_word_column_is_sent_back_and_the_next_answer_repairs_it(
    tmp_path: Path, replayed: tuple[Path, dict[str, Any]]
) -> None:
    written, client = write(reserved_column, tmp_path)
    assert written.repairs == [Repair("fields:pet_name", RESERVED)]
    repairs = [request for request in client.asked if is_repair(request)]
    assert len(repairs) == 1
    assert user_turns(repairs[0])[-1] == (
        f"That answer makes the domain invalid: {RESERVED}. Answer again in the same format with this fixed."
    )
    assert repairs[0]["messages"][-2]["content"] == reserved_column(
        {**repairs[0], "messages": repairs[0]["messages"][:-2]}
    )
    assert repairs[0]["temperature"] > 0 and repairs[0]["sample"] == 1
    assert dump_blueprint(written.blueprint) == (replayed[0] / "blueprint.yaml").read_text()


def test_an_answer_that_breaks_the_step_schema_is_sent_back_with_the_schema_error(tmp_path: Path) -> None:
    written, _ = write(read_tool_name, tmp_path)
    assert [repair.step for repair in written.repairs] == ["actions"]
    assert written.repairs[0].error.startswith("actions/0: ")
    assert [action.name for action in written.blueprint.actions] == ["create_pet_name"]


def test_a_blueprint_still_invalid_after_every_round_is_rejected_and_its_draft_saved(tmp_path: Path) -> None:
    with pytest.raises(BlueprintRejectedError) as raised:
        write(always_reserved, tmp_path, rounds=2)
    message = str(raised.value)
    draft = next((tmp_path / "drafts").glob("blueprint-*.yaml"))
    assert message == (
        f"the LLM's blueprint is still invalid after 2 repair rounds: fields:pet_name: {RESERVED}; "
        f"its last draft is saved in {draft}"
    )
    assert "class" in draft.read_text()


def test_the_cli_rejects_a_blueprint_it_cannot_repair_in_one_line_with_exit_2_and_writes_no_package(
    tmp_path: Path,
) -> None:
    cache = tmp_path / "constructed"
    with pytest.raises(BlueprintRejectedError):
        write(always_reserved, tmp_path, cache=cache)  # records the constructed answers for the offline CLI run
    result = envforge_cli(*generate_args(tmp_path / "out", cache), cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(
        f"envforge: error: the LLM's blueprint is still invalid after 3 repair rounds: fields:pet_name: {RESERVED}; "
        "its last draft is saved in runs/synthesis/blueprint-"
    )
    assert not (tmp_path / "out").exists()
    assert len(list((tmp_path / "runs" / "synthesis").glob("blueprint-*.yaml"))) == 1


EXAMPLE_ANSWERS: dict[str, Any] = {
    "domain": {
        "domain": "bookshop",
        "title": "Corner Bookshop",
        "description": "A small bookshop.",
        "agent_instructions": "Help customers with orders.",
    },
    "entities": {
        "entities": [
            {"name": "customer", "description": "A reader."},
            {"name": "order", "description": "A purchase."},
            {"name": "class", "description": "A reading class."},
            {"name": "payment", "description": "Money paid for an order."},
        ]
    },
    "person": {"person": "customer"},
    "fields:customer": {"fields": [{"name": "points", "type": "integer", "description": "Loyalty points."}]},
    "fields:order": {
        "fields": [
            {"name": "placed_on", "type": "date", "description": "When."},
            {"name": "status", "type": "enum", "values": ["pending", "shipped", "cancelled"], "description": "."},
            {"name": "note", "type": "string", "description": "A note."},
        ]
    },
    "fields:class": {"fields": [{"name": "topic", "type": "string", "description": "What is read."}]},
    "fields:payment": {"fields": [{"name": "amount", "type": "money", "description": "Paid."}]},
    "links": {
        "order": {"belongs_to": "customer", "also_refers_to": "none"},
        "class": {"belongs_to": "customer", "also_refers_to": "order"},
        "payment": {"belongs_to": "order", "also_refers_to": "none"},
    },
    "actions": {
        "actions": [
            {
                "kind": "change_status",
                "target": "order.status",
                "from_value": "pending",
                "to_value": "cancelled",
                "name": "cancel_order",
                "description": "Cancel an order.",
            },
            {"kind": "set_field", "target": "order.note", "name": "update_note", "description": "Change a note."},
            {"kind": "add_to", "target": "customer.points", "name": "add_points", "description": "Add points."},
            {"kind": "subtract_from", "target": "payment.amount", "name": "refund_payment", "description": "Refund."},
            {"kind": "create", "target": "class", "name": "book_class", "description": "Book a class."},
        ]
    },
    "personas": {"personas": [{"name": "reader", "description": "Reads.", "traits": ["terse"], "knows": ["email"]}]},
}


def test_every_kind_of_menu_action_assembles_into_a_package_that_passes_envforge_check(tmp_path: Path) -> None:
    answers = json.loads(json.dumps(EXAMPLE_ANSWERS))
    answers["entities"]["entities"][2]["name"] = "reading_class"
    answers["fields:reading_class"] = answers.pop("fields:class")
    answers["links"]["reading_class"] = answers["links"].pop("class")
    answers["actions"]["actions"][4]["target"] = "reading_class"
    text = yaml.safe_dump(build_blueprint(answers), sort_keys=False)
    blueprint = load_blueprint_text(text, "assembled.yaml")
    assert [action.name for action in blueprint.actions] == [
        "cancel_order",
        "update_note",
        "add_points",
        "refund_payment",
        "book_class",
    ]
    source = tmp_path / "bookshop.yaml"
    write_file_atomic(source, text.encode())
    run = run_pipeline(source, tmp_path / "out", GenerateConfig(rows=120, tasks=8))
    results = run_checks(open_for_check(run.package))
    assert [result.name for result in results if not result.passed] == []
    kinds = {json.loads(line)["oracle"][-1]["name"] for line in (run.package / "tasks.jsonl").read_text().splitlines()}
    assert len(kinds) >= 3


def test_an_entity_named_like_a_python_keyword_is_sent_back_to_the_entities_step() -> None:
    from envforge.synthesis.drafts import DraftError

    with pytest.raises(DraftError) as raised:
        build_blueprint(EXAMPLE_ANSWERS)
    assert (raised.value.step, raised.value.message) == (
        "entities",
        "the entity name 'class' is a reserved word in expressions; choose another name",
    )

"""docs/blueprint-guide.md, followed by the letter: `envforge new`, the guide's entity and action, `generate`,
`check`; and every other YAML block of the guide is a piece of what `envforge new` writes."""

from __future__ import annotations

import json
from pathlib import Path

from envforge.ir.loading import load_blueprint_text
from envforge.ir.violations import count_state_violations
from envforge.stages.ontology.build import build_ontology
from envforge.stages.state.build import build_state
from envforge.suite.scaffold import render_blueprint
from tests.conftest import REPO, envforge_cli
from tests.guide_snippets import add_items, guide_snippet, yaml_blocks


def test_following_the_guide_from_new_gives_a_package_that_passes_check_with_a_task_for_every_action(
    tmp_path: Path,
) -> None:
    assert envforge_cli("new", "pet_clinic", cwd=tmp_path).returncode == 0
    path = tmp_path / "blueprints" / "pet_clinic.yaml"
    path.write_text(add_items(path.read_text(encoding="utf-8"), guide_snippet("add-payment")), encoding="utf-8")
    generated = envforge_cli(
        "generate", str(path), "-o", str(tmp_path / "generated"), "--rows", "400", "--tasks", "40", timeout=300
    )
    assert generated.returncode == 0, generated.stderr
    assert "warning" not in generated.stderr, generated.stderr
    package = tmp_path / "generated" / "pet_clinic"
    checked = envforge_cli("check", str(package), timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    mix = json.loads((package / "report.json").read_text(encoding="utf-8"))["mix"]
    assert mix["unreached"] == {}
    assert set(mix["by_action"]) == {"cancel_booking", "reschedule_booking", "refund_payment"}
    tasks = [json.loads(line) for line in (package / "tasks.jsonl").read_text(encoding="utf-8").splitlines()]
    refunds = [task for task in tasks if any(call["name"] == "refund_payment" for call in task["oracle"])]
    assert len(refunds) == mix["by_action"]["refund_payment"] > 0


def test_every_unanchored_yaml_block_of_the_guide_is_a_piece_of_the_starting_blueprint() -> None:
    template = render_blueprint("pet_clinic", Path("blueprints/pet_clinic.yaml"))
    pieces = [body for anchor, body in yaml_blocks() if anchor is None]
    assert len(pieces) >= 6
    assert [piece for piece in pieces if piece not in template] == []


def test_the_guide_snippet_items_go_at_the_end_of_their_lists() -> None:
    blueprint = "entities:\n  - a\n\n  - b\n\n# next\nrelations:\n  - r\nactions: []\n"
    snippet = "entities:\n  - c\n\nrelations:\n  - s\n"
    assert add_items(blueprint, snippet) == (
        "entities:\n  - a\n\n  - b\n\n  - c\n\n# next\nrelations:\n  - r\n\n  - s\nactions: []\n"
    )


def test_the_guides_rules_of_several_conditions_are_the_shipped_retail_policies_word_for_word() -> None:
    assert guide_snippet("conditions") in (REPO / "blueprints" / "retail.yaml").read_text(encoding="utf-8")


def test_the_guides_computed_offer_is_the_shipped_airlines_policy_word_for_word() -> None:
    assert guide_snippet("computed") in (REPO / "blueprints" / "airline.yaml").read_text(encoding="utf-8")


def test_the_guides_ledger_example_is_the_shipped_clinics_invariant_word_for_word() -> None:
    assert guide_snippet("ledger") in (REPO / "blueprints" / "clinic.yaml").read_text(encoding="utf-8")


def test_the_guides_world_invariants_make_a_seed_with_none_of_the_contradictions_it_had_without_them() -> None:
    start = add_items(render_blueprint("pet_clinic", Path("blueprints/pet_clinic.yaml")), guide_snippet("add-payment"))
    plain = load_blueprint_text(start, "pet_clinic.yaml")
    declared = load_blueprint_text(add_items(start, guide_snippet("world-invariants")), "pet_clinic.yaml")

    before, _ = build_state(plain, build_ontology(plain), rows=400, seed=0)
    after, _ = build_state(declared, build_ontology(declared), rows=400, seed=0)

    broken = {count.id: count.violations for count in count_state_violations(declared, before)}
    assert broken["completed_booking_was_paid"] > 0 and broken["refunded_booking_is_cancelled"] > 0
    assert {count.id: count.violations for count in count_state_violations(declared, after)} == {
        "open_bookings_counts_bookings": 0,
        "completed_booking_was_paid": 0,
        "refunded_booking_is_cancelled": 0,
    }


def test_the_guides_catalogue_example_is_the_shipped_retail_products_word_for_word() -> None:
    assert guide_snippet("catalogue") in (REPO / "blueprints" / "retail.yaml").read_text(encoding="utf-8")

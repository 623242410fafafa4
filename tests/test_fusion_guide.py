"""docs/fusion.md against the code: its composition loads, its bridge is the shipped one verbatim, and every
error line it shows is what envforge prints for the case it describes."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from envforge.ir.loading import load_blueprint
from tests.blueprint_edits import edit
from tests.cli.test_bad_input import run_main
from tests.conftest import REPO
from tests.guide_snippets import guide_snippet, yaml_blocks

FUSION = REPO / "docs" / "fusion.md"
SHIPPED = REPO / "blueprints" / "fused" / "clinic_banking.yaml"
PREFIX = "envforge: error: "


def bridge_block() -> str:
    """The guide's one YAML block without an anchor: the bridge and its policies, as the shipped file has them."""
    blocks = [body for anchor, body in yaml_blocks(FUSION) if anchor is None]
    assert len(blocks) == 1
    return blocks[0]


def test_the_bridge_the_guide_shows_is_verbatim_from_the_shipped_clinic_banking_blueprint() -> None:
    block = bridge_block()
    assert block.startswith("  bridges:\n    - name: pay_clinic_invoice_from_bank_account\n")
    assert block in SHIPPED.read_text(encoding="utf-8")


def test_the_guide_composition_loads_and_with_the_bridge_added_fuses_like_the_shipped_one(tmp_path: Path) -> None:
    plain = tmp_path / "plain.yaml"
    plain.write_text(guide_snippet("compose", FUSION), encoding="utf-8")
    fused = load_blueprint(plain)
    assert [(part.domain, part.prefix) for part in fused.composed_of] == [("clinic", "clinic"), ("banking", "bank")]
    assert fused.domain_of("freeze_bank_card") == "banking"
    bridged = tmp_path / "bridged.yaml"
    bridged.write_text(guide_snippet("compose", FUSION) + bridge_block(), encoding="utf-8")
    shipped = load_blueprint(SHIPPED)
    guided = load_blueprint(bridged)
    assert [action.name for action in guided.actions] == [action.name for action in shipped.actions]
    assert guided.action("pay_clinic_invoice_from_bank_account") == shipped.action(
        "pay_clinic_invoice_from_bank_account"
    )
    assert guided.policies == shipped.policies
    assert len(guided.actions) == len(fused.actions) + 1


def test_every_command_line_error_the_guide_shows_is_what_the_command_prints(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    lines = guide_snippet("errors", FUSION, "console").splitlines()
    commands = [line.removeprefix("$ envforge ") for line in lines[0::2]]
    shown = [line.removeprefix(PREFIX) for line in lines[1::2]]
    assert len(commands) == len(shown) >= 6
    for command, message in zip(commands, shown, strict=True):
        out = tmp_path / "out"
        assert run_main(capsys, *shlex.split(command), "-o", str(out)) == (2, message)
        assert not out.exists()


def test_every_composition_error_the_guide_shows_is_what_generate_prints_for_the_edit_it_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    composition = guide_snippet("compose", FUSION)
    member = "    - {blueprint: banking, prefix: bank}\n"
    edits = [
        edit(member, "    - {blueprint: ./nowhere.yaml}\n", composition),
        edit(member, "    - {blueprint: mine.yaml}\n", composition),
        edit(member, "    - {blueprint: other.yaml}\n", composition),
        edit("    - {blueprint: clinic}\n", "    - {blueprint: clinic, prefix: bank}\n", composition),
        composition + edit("key: invoice.appointment_id}", "key: invoice.appointment_idx}", bridge_block()),
    ]
    shown = [line.removeprefix(PREFIX) for line in guide_snippet("composition-errors", FUSION, "text").splitlines()]
    assert len(shown) == len(edits)
    folder = tmp_path / "blueprints" / "fused"
    folder.mkdir(parents=True)
    (folder / "other.yaml").write_text(composition, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    for text, message in zip(edits, shown, strict=True):
        (folder / "mine.yaml").write_text(text, encoding="utf-8")
        assert run_main(capsys, "generate", "blueprints/fused/mine.yaml", "-o", "out") == (2, message)
        assert not (tmp_path / "out").exists()

"""`envforge new`: a starting blueprint that loads, written only where it may be, for a valid name only."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.ir.loading import load_blueprint, load_blueprint_text
from envforge.suite.scaffold import render_blueprint
from tests.cli.test_bad_input import run_main
from tests.conftest import envforge_cli


def test_new_writes_blueprints_domain_yaml_that_loads_and_points_to_the_guides(tmp_path: Path) -> None:
    result = envforge_cli("new", "pet_clinic", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    path = tmp_path / "blueprints" / "pet_clinic.yaml"
    assert result.stdout.startswith("wrote blueprints/pet_clinic.yaml")
    blueprint = load_blueprint(path)
    assert blueprint.env_id == "envforge/pet_clinic-v0"
    assert [action.name for action in blueprint.actions] == ["cancel_booking", "reschedule_booking"]
    text = path.read_text(encoding="utf-8")
    assert "docs/blueprint-guide.md" in text
    assert "docs/expressions.md" in text
    assert "envforge lint blueprints/pet_clinic.yaml" in text


@pytest.mark.parametrize("domain", ["a", "pet_clinic_2", "x" * 63])
def test_the_starting_blueprint_loads_for_any_valid_domain_name(domain: str) -> None:
    blueprint = load_blueprint_text(render_blueprint(domain, Path("blueprints/x.yaml")), "x.yaml")
    assert blueprint.domain == domain


def test_new_refuses_to_overwrite_a_file_in_one_line_and_overwrites_it_with_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "mine.yaml"
    path.write_text("kept: true\n", encoding="utf-8")
    code, message = run_main(capsys, "new", "shop", "-o", str(path))
    assert code == 2
    assert message == f"{path} already exists; pass --force to overwrite it, or -o to write elsewhere"
    assert path.read_text(encoding="utf-8") == "kept: true\n"
    result = envforge_cli("new", "shop", "-o", str(path), "--force")
    assert result.returncode == 0, result.stderr
    assert load_blueprint(path).domain == "shop"


@pytest.mark.parametrize(
    ("domain", "suggestion"),
    [("Pet-Clinic", "pet_clinic"), ("9lives", "my_9lives"), ("pet clinic", "pet_clinic"), ("", "domain")],
)
def test_new_refuses_a_domain_the_schema_refuses_in_one_line_and_writes_nothing(
    domain: str, suggestion: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code, message = run_main(capsys, "new", domain)
    assert code == 2
    assert message.startswith(f"'{domain}' is not a valid domain name: use lower_snake_case")
    assert message.endswith(f"(e.g. '{suggestion}')")
    assert list(tmp_path.iterdir()) == []


def test_new_refuses_a_folder_as_the_output_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, message = run_main(capsys, "new", "shop", "-o", str(tmp_path))
    assert code == 2
    assert message == f"{tmp_path} is a folder; pass a file path such as {tmp_path / 'shop.yaml'}"

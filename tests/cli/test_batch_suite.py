"""`envforge batch` over a suite: folders and list files of blueprints, bad input refused before anything is
written, and the suite report."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envforge.suite.blueprints import SuiteEntry, resolve_suite
from envforge.suite.report import BatchOutcome, SuiteReport
from tests.cli.test_bad_input import run_main
from tests.conftest import REPO

SHIPPED = REPO / "blueprints"


@pytest.fixture
def suite(tmp_path: Path) -> Path:
    """A folder of two blueprints (one .yml), a schema, a subfolder and a note beside them."""
    folder = tmp_path / "suite"
    (folder / "nested").mkdir(parents=True)
    shutil.copy(SHIPPED / "library.yaml", folder / "library.yaml")
    shutil.copy(SHIPPED / "clinic.yaml", folder / "clinic.yml")
    shutil.copy(SHIPPED / "retail.yaml", folder / "nested" / "retail.yaml")
    shutil.copy(SHIPPED / "schema.json", folder / "schema.json")
    (folder / "notes.md").write_text("not a blueprint\n", encoding="utf-8")
    return folder


def test_a_folder_gives_its_yaml_and_yml_blueprints_sorted_and_not_those_of_subfolders(suite: Path) -> None:
    assert resolve_suite([str(suite)]) == [
        SuiteEntry(suite / "clinic.yml", str(suite / "clinic.yml")),
        SuiteEntry(suite / "library.yaml", str(suite / "library.yaml")),
    ]


def test_a_list_file_names_paths_from_its_own_folder_and_shipped_names_skipping_comments(
    suite: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    listing = suite / "suite.txt"
    listing.write_text("# the suite\n\nlibrary.yaml\n  nested/retail.yaml  # moved\nairline\n", encoding="utf-8")
    expected = [
        SuiteEntry(suite / "library.yaml", f"library.yaml ({listing}:3)"),
        SuiteEntry(suite / "nested" / "retail.yaml", f"nested/retail.yaml ({listing}:4)"),
        SuiteEntry(SHIPPED / "airline.yaml", f"airline ({listing}:5)"),
    ]
    assert resolve_suite([f"@{listing}"]) == expected
    assert resolve_suite([str(listing)]) == expected


def test_arguments_of_every_kind_keep_their_order(suite: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(REPO)
    (suite / "more.txt").write_text("banking\n", encoding="utf-8")
    paths = [entry.path for entry in resolve_suite(["retail", str(suite), f"@{suite / 'more.txt'}"])]
    assert paths == [
        Path("blueprints/retail.yaml"),
        suite / "clinic.yml",
        suite / "library.yaml",
        Path("blueprints/banking.yaml"),
    ]


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["{tmp}/missing/"], "{tmp}/missing/: no such file or folder; check the path"),
        (
            ["{tmp}/empty"],
            "{tmp}/empty: no blueprint (*.yaml, *.yml) in this folder; name a folder that holds blueprints",
        ),
        (
            ["@{tmp}/nope.txt"],
            "@{tmp}/nope.txt: no such list file; check the path "
            "(a list file names one blueprint file, folder or shipped name per line)",
        ),
        (
            ["{tmp}/suite/broken.txt"],
            "{tmp}/suite/broken.txt:2: gone.yaml: no such file or folder (looked for {tmp}/suite/gone.yaml); "
            "relative paths start at the list file's folder",
        ),
        (
            ["{tmp}/suite/typo.txt"],
            "{tmp}/suite/typo.txt:1: libary: no such blueprint file, folder or shipped blueprint; "
            "did you mean 'library'?",
        ),
        (
            ["{tmp}/suite/comments.txt"],
            "{tmp}/suite/comments.txt: lists no blueprint; a list file names one blueprint file, folder or "
            "shipped name per line (# starts a comment)",
        ),
        (
            ["{tmp}/suite", "library"],
            "{tmp}/suite/library.yaml and library would both write {tmp}/out/library (domain 'library'); "
            "drop one, or give one another domain",
        ),
        (
            ["retail", "{repo}/blueprints/retail.yaml"],
            "retail and {repo}/blueprints/retail.yaml are the same blueprint; name it once",
        ),
    ],
    ids=[
        "missing folder",
        "empty folder",
        "missing list",
        "missing entry",
        "unknown name",
        "empty list",
        "same domain",
        "same file",
    ],
)
def test_bad_suite_input_is_one_line_naming_the_entry_and_the_fix_exit_2_and_nothing_written(
    arguments: list[str],
    message: str,
    suite: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(REPO)
    (tmp_path / "empty").mkdir()
    (suite / "broken.txt").write_text("library.yaml\ngone.yaml\n", encoding="utf-8")
    (suite / "typo.txt").write_text("libary\n", encoding="utf-8")
    (suite / "comments.txt").write_text("# nothing yet\n\n", encoding="utf-8")
    fill = {"tmp": str(tmp_path), "repo": str(REPO)}
    out = tmp_path / "out"
    code, error = run_main(capsys, "batch", *[argument.format(**fill) for argument in arguments], "-o", str(out))
    assert (code, error) == (2, message.format(**fill))
    assert not out.exists()


def outcome(blueprint: str, seconds: float, cached: int, *, ok: bool = True) -> BatchOutcome:
    domain = Path(blueprint).stem
    if not ok:
        return BatchOutcome(blueprint, False, seconds, error=f"{blueprint}:3: person: unknown entity", user_error=True)
    return BatchOutcome(
        blueprint,
        True,
        seconds,
        env_id=f"envforge/{domain}-v0",
        package=f"/data/out/{domain}",
        package_hash=domain * 4,
        tasks=4,
        stages_built=10 - cached,
        stages_cached=cached,
    )


def test_the_suite_report_keeps_everything_that_varies_between_runs_under_timing() -> None:
    first = SuiteReport(
        [outcome("a/library.yaml", 4.0, 0), outcome("a/bad.yaml", 0.5, 0, ok=False), outcome("a/clinic.yaml", 5, 0)],
        Path("/data/out"),
        "local",
        2,
        0,
        60,
        4,
        8.0,
    )
    resumed = SuiteReport(
        [outcome("a/library.yaml", 0.1, 10), outcome("a/bad.yaml", 0.4, 0, ok=False), outcome("a/clinic.yaml", 3, 6)],
        Path("/data/out"),
        "local",
        2,
        0,
        60,
        4,
        3.0,
    )
    report = first.as_dict()
    assert report["blueprints"][0] == {
        "blueprint": "a/library.yaml",
        "env_id": "envforge/library-v0",
        "ok": True,
        "package": "library",
        "package_hash": "library" * 4,
        "tasks": 4,
        "error": "",
        "user_error": False,
        "timing": {"seconds": 4.0, "stages_built": 10, "stages_cached": 0},
    }
    assert report["blueprints"][1]["package"] == ""
    assert report["totals"] == {
        "packages_ok": 2,
        "packages_failed": 1,
        "tasks": 8,
        "timing": {
            "wall_seconds": 8.0,
            "packages_per_hour": 900.0,
            "tasks_per_second": 1.0,
            "stages_built": 20,
            "stages_cached": 0,
        },
    }
    assert resumed.as_dict()["totals"]["timing"]["stages_cached"] == 16

    def without_timing(value: object) -> object:
        if isinstance(value, dict):
            return {key: without_timing(item) for key, item in value.items() if key != "timing"}
        return [without_timing(item) for item in value] if isinstance(value, list) else value

    assert without_timing(report) == without_timing(resumed.as_dict())

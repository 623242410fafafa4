"""A broken or changed package gets one line naming the file and the fix from every command that loads it,
and `envforge check` names the file and the line (or page) at fault."""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from envforge.cli.app import main
from envforge.errors import PackageError
from envforge.files import read_files, write_dir_atomic
from envforge.hashing import hash_bytes
from envforge.ir.manifest import MANIFEST, dump_manifest, load_manifest
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.validators.checks import run_checks
from envforge.validators.loaded_package import open_for_check
from tests.conftest import REPO

SHOWCASE = REPO / "generated" / "showcase" / "retail"
FIRST_TASK = "retail-0001"


def empty_state(package: Path) -> None:
    (package / "state.sqlite").write_bytes(b"")


def zeroed_pages(package: Path) -> None:
    state = bytearray((package / "state.sqlite").read_bytes())
    page = int.from_bytes(state[16:18], "big")
    state[5 * page : 12 * page] = bytes(7 * page)
    (package / "state.sqlite").write_bytes(bytes(state))


def invalid_task_line(package: Path) -> None:
    lines = (package / "tasks.jsonl").read_text(encoding="utf-8").splitlines()
    lines[2] = lines[2][:-5]
    (package / "tasks.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")


def missing_verifier(package: Path) -> None:
    (package / "verifiers" / f"{FIRST_TASK}.py").unlink()


BREAKAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "empty state": (empty_state, "state.sqlite: not a SQLite database: empty (0 bytes)"),
    "zeroed pages": (zeroed_pages, "state.sqlite: damaged SQLite database at pages 6-12 of 22"),
    "invalid task JSON": (invalid_task_line, "tasks.jsonl: line 3: not a task (Invalid JSON"),
    "missing verifier": (missing_verifier, f"verifiers/{FIRST_TASK}.py: missing (the verifier of task {FIRST_TASK})"),
}
COMMANDS = {
    "serve stdio": ["serve", "{package}", "--transport", "stdio"],
    "serve http": ["serve", "{package}", "--transport", "http", "--port", "0"],
    "serve web": ["serve", "{package}", "--app", "web", "--port", "0"],
    "serve phone": ["serve", "{package}", "--app", "phone", "--port", "0"],
    "run-task": ["run-task", "{package}", FIRST_TASK, "--oracle"],
    "rollout": ["rollout", "{package}", "--base-url", "http://127.0.0.1:9/v1", "--model", "none"],
    "export": ["export", "{package}", "--out", "{out}"],
}


def broken_copy(tmp_path: Path, breakage: str, *, rehash: bool = False) -> Path:
    """The showcase package broken one way; with `rehash`, its manifest rewritten to match the broken files."""
    package = Path(shutil.copytree(SHOWCASE, tmp_path / "retail"))
    BREAKAGES[breakage][0](package)
    if rehash:
        files = read_files(package)
        manifest = load_manifest(files[MANIFEST])
        hashes = {name: hash_bytes(data) for name, data in files.items() if name != MANIFEST}
        files[MANIFEST] = dump_manifest(manifest.model_copy(update={"files": hashes}))
        write_dir_atomic(package, files)
    return package


def run_main(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[int | str | None, str]:
    code: int | str | None = 0
    try:
        main(args)
    except SystemExit as exit_:
        code = exit_.code
    return code, capsys.readouterr().err


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("breakage", BREAKAGES)
def test_every_command_refuses_a_broken_package_with_one_line_naming_the_file_and_the_fix(
    breakage: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    package = broken_copy(tmp_path, breakage)
    args = [part.format(package=package, out=tmp_path / "out") for part in COMMANDS[command]]

    code, err = run_main(capsys, args)

    assert code == 2
    assert len(err.strip().splitlines()) == 1, err
    assert err.startswith(f"envforge: error: {package}/")
    assert "re-run `envforge generate`" in err and f"`envforge check {package}`" in err


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_a_broken_package_whose_manifest_was_rehashed_still_fails_to_load_with_the_problem_named(
    breakage: str, tmp_path: Path
) -> None:
    package = broken_copy(tmp_path, breakage, rehash=True)

    with pytest.raises(PackageError) as failure:
        load_package(open_package(package))

    assert BREAKAGES[breakage][1] in str(failure.value)
    assert "\n" not in str(failure.value)


@pytest.mark.parametrize("breakage", BREAKAGES)
def test_check_names_the_file_and_the_line_or_page_at_fault(breakage: str, tmp_path: Path) -> None:
    package = broken_copy(tmp_path, breakage)

    results = {result.name: result for result in run_checks(open_for_check(package), sample=3)}

    assert results["package_loads"].status == "failed"
    assert BREAKAGES[breakage][1] in results["package_loads"].details[0]


def test_a_file_changed_after_generation_fails_to_load_naming_it_and_the_manifest(tmp_path: Path) -> None:
    package = Path(shutil.copytree(SHOWCASE, tmp_path / "retail"))
    (package / "policy.md").write_text((package / "policy.md").read_text(encoding="utf-8") + "Refund anything.\n")

    with pytest.raises(PackageError, match=r"policy\.md: content differs from the hash in envforge\.yaml"):
        load_package(open_package(package))


def test_a_manifest_alias_bomb_is_refused_at_once_as_one_line(tmp_path: Path) -> None:
    package = Path(shutil.copytree(SHOWCASE, tmp_path / "retail"))
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{n}: &a{n} [{', '.join([f'*a{n - 1}'] * 9)}]" for n in range(1, 9)]
    (package / "envforge.yaml").write_text("\n".join(levels) + "\n", encoding="utf-8")

    started = time.perf_counter()
    with pytest.raises(PackageError, match=r"envforge\.yaml: the YAML (expands|nests) (to )?more than"):
        load_package(open_package(package))
    assert time.perf_counter() - started < 1.0

"""Folders written atomically: a reader never finds a package missing or half written, and a run killed
mid-swap leaves the old folder recoverable."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

from envforge.files import clean_leftovers, exchange, read_files, write_dir_atomic

REWRITES = 60


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the one-step exchange is Linux's renameat2")
def test_a_reader_never_finds_the_package_missing_or_partial_while_it_is_rewritten(tmp_path: Path) -> None:
    target = tmp_path / "retail"
    write_dir_atomic(target, {"envforge.yaml": b"0", "tasks.jsonl": b"0"})
    seen: list[str] = []
    done = threading.Event()

    def read() -> None:
        # Each read resolves the path anew, so two reads may straddle a swap; what must never happen is a
        # missing folder or file, or a file of neither version.
        versions = {str(version).encode() for version in range(REWRITES)}
        while not done.is_set():
            try:
                manifest = (target / "envforge.yaml").read_bytes()
            except FileNotFoundError:
                seen.append("missing")
                continue
            if manifest not in versions:
                seen.append(f"partial {manifest!r}")

    reader = threading.Thread(target=read)
    reader.start()
    try:
        for version in range(1, REWRITES):
            write_dir_atomic(target, {"envforge.yaml": str(version).encode(), "tasks.jsonl": str(version).encode()})
    finally:
        done.set()
        reader.join()
    assert seen == []
    assert (target / "envforge.yaml").read_bytes() == str(REWRITES - 1).encode()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["retail"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the one-step exchange is Linux's renameat2")
def test_exchange_swaps_two_folders_in_one_step(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "x").write_text("a")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "x").write_text("b")
    assert exchange(tmp_path / "a", tmp_path / "b")
    assert (tmp_path / "a" / "x").read_text() == "b" and (tmp_path / "b" / "x").read_text() == "a"


def test_an_old_folder_a_killed_swap_left_retired_is_put_back_and_temporaries_removed(tmp_path: Path) -> None:
    retired = tmp_path / ".old-retail-0123abcd"
    retired.mkdir()
    (retired / "envforge.yaml").write_text("old")
    (tmp_path / ".tmp-retail-89abcdef").mkdir()
    clean_leftovers(tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["retail"]
    assert (tmp_path / "retail" / "envforge.yaml").read_text() == "old"


def test_a_retired_folder_beside_a_complete_new_one_is_removed(tmp_path: Path) -> None:
    write_dir_atomic(tmp_path / "retail", {"envforge.yaml": b"new"})
    (tmp_path / ".old-retail-0123abcd").mkdir()
    clean_leftovers(tmp_path)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["retail"]
    assert (tmp_path / "retail" / "envforge.yaml").read_text() == "new"


def test_cleaning_one_name_leaves_the_temporary_folders_other_writers_are_filling(tmp_path: Path) -> None:
    (tmp_path / ".tmp-retail-0123abcd").mkdir()
    (tmp_path / ".tmp-retail-plus-89abcdef").mkdir()
    (tmp_path / ".tmp-clinic-89abcdef").mkdir()
    clean_leftovers(tmp_path, "retail")
    assert sorted(path.name for path in tmp_path.iterdir()) == [".tmp-clinic-89abcdef", ".tmp-retail-plus-89abcdef"]


def test_a_temporary_file_a_killed_write_left_is_removed(tmp_path: Path) -> None:
    (tmp_path / ".tmp-suite.json-0123abcd").write_text('{"trunc')
    (tmp_path / "suite.json").write_text("{}")
    clean_leftovers(tmp_path, "suite.json")
    assert sorted(path.name for path in tmp_path.iterdir()) == ["suite.json"]


def test_every_file_reaches_the_disk_before_the_folder_is_swapped_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "retail"
    files = {f"verifiers/retail-{index:04d}.py": str(index).encode() for index in range(40)} | {"envforge.yaml": b"x"}
    synced: list[bool] = []
    monkeypatch.setattr("envforge.files.os.fsync", lambda descriptor: synced.append(target.exists()))
    write_dir_atomic(target, files)
    assert synced == [False] * len(files)
    assert read_files(target) == files

"""Progress off a terminal: a line as each step starts and ends, counts of its items, and a heartbeat while it
runs, on stderr, with stdout left to the command's output; and a heartbeat that ends with its block."""

from __future__ import annotations

import json
import re
import threading
from pathlib import Path
from types import SimpleNamespace

import pytest

from envforge.cli.output import episode_progress
from envforge.cli.progress import HEARTBEAT_VARIABLE, PREFIX, BatchLines, Lines, heartbeat_interval
from envforge.errors import UserInputError
from envforge.stages.registry import STAGES
from envforge.suite.report import BatchOutcome
from tests.conftest import REPO, envforge_cli

FAST_HEARTBEAT = "0.05"
"""Seconds between heartbeats in these tests: any stage that runs a subprocess (tooltests) outlasts many."""


def progress_lines(stderr: str) -> list[str]:
    return [line[len(PREFIX) + 1 :] for line in stderr.splitlines() if line.startswith(PREFIX)]


def test_generate_off_a_terminal_prints_each_stage_start_and_end_and_heartbeats_and_stdout_stays_json(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HEARTBEAT_VARIABLE, FAST_HEARTBEAT)
    result = envforge_cli("generate", "retail", "-o", str(tmp_path), "--rows", "200", "--tasks", "10", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["env_id"] == "envforge/retail-v0"
    lines = progress_lines(result.stderr)
    for stage in STAGES:
        assert f"{stage.name}: started" in lines
        assert any(re.fullmatch(rf"{stage.name}: done in \d+\.\d s(, .*)?", line) for line in lines), lines
    assert lines.index("tooltests: started") < lines.index("tasks: started")
    assert any(line.startswith("tooltests: still running, ") for line in lines), lines
    assert any(re.fullmatch(r"verifiers: done in .*, 10/10 accepted \(\d+ gated\)", line) for line in lines), lines

    cached = envforge_cli("generate", "retail", "-o", str(tmp_path), "--rows", "200", "--tasks", "10", "--json")
    assert all(f"{stage.name}: cached in " in cached.stderr for stage in STAGES), cached.stderr


def test_batch_off_a_terminal_prints_each_blueprint_start_and_end_with_the_count_done_and_heartbeats(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HEARTBEAT_VARIABLE, FAST_HEARTBEAT)
    broken = tmp_path / "broken.yaml"
    broken.write_text((REPO / "blueprints" / "retail.yaml").read_text().replace("person: customer", "person: custmer"))
    out = tmp_path / "out"
    result = envforge_cli("batch", "library", str(broken), "-o", str(out), "--rows", "200", "--tasks", "10")
    assert result.returncode == 2, result.stderr
    lines = progress_lines(result.stderr)
    beats = [line for line in lines if line.startswith("batch: still running, ")]
    assert any(re.search(r", 1/2 blueprints done; running library \d", beat) for beat in beats), lines
    events = [line for line in lines if line not in beats]
    assert events[:3] == ["batch: started", "library: started", "broken: started"]
    assert re.fullmatch(r"broken: FAILED in \d+\.\d s, 1/2 done", events[3]), lines
    assert re.fullmatch(r"library: ok in .+ s, 2/2 done", events[4]), lines
    assert re.fullmatch(r"batch: done in .+ s, 2/2 blueprints done", events[5]), lines
    assert len(events) == 6
    assert "library" in result.stdout and "FAILED" in result.stdout


def test_item_counts_are_printed_at_most_once_per_tenth_and_only_after_five_seconds(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = [100.0]
    monkeypatch.setattr("envforge.cli.progress.time.monotonic", lambda: clock[0])
    lines = Lines()
    lines.started("verifiers")
    for done in range(1, 31):
        clock[0] += 1.0
        lines.advanced("verifiers", done, 30, "accepted")
    lines.finished("verifiers", "done", 30.0)
    assert progress_lines(capsys.readouterr().err) == [
        "verifiers: started",
        "verifiers: 5/30 accepted",
        "verifiers: 10/30 accepted",
        "verifiers: 15/30 accepted",
        "verifiers: 20/30 accepted",
        "verifiers: 25/30 accepted",
        "verifiers: done in 30.0 s, 30/30 accepted",
    ]


def test_the_heartbeat_names_the_first_step_with_its_count_and_the_others_running(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = Lines()
    lines.started("batch")
    lines.advanced("batch", 1, 5, "blueprints done", shown=False)
    lines.started("retail")
    lines.beat()
    beat = progress_lines(capsys.readouterr().err)[-1]
    assert re.fullmatch(r"batch: still running, \d+\.\d s, 1/5 blueprints done; running retail \d+\.\d s", beat)


def test_the_heartbeat_thread_ends_with_its_block_and_says_nothing_after(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HEARTBEAT_VARIABLE, "0.01")
    progress = BatchLines()
    with progress(1) as advance:
        progress.started(Path("retail.yaml"))
        beat = threading.Event()
        monkeypatch.setattr(Lines, "beat", lambda self: beat.set())
        assert beat.wait(5)
        advance(BatchOutcome("retail.yaml", True, 1.5))
    assert not [thread for thread in threading.enumerate() if thread.name == "envforge-heartbeat"]
    *_, finished, ended = progress_lines(capsys.readouterr().err)
    assert finished == "retail: ok in 1.5 s, 1/1 done"
    assert re.fullmatch(r"batch: done in \d+\.\d s, 1/1 blueprints done", ended)


@pytest.mark.parametrize("value", ["0", "-1", "soon", "nan", "inf"])
def test_a_heartbeat_interval_that_is_not_a_positive_number_is_a_one_line_error(
    value: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(HEARTBEAT_VARIABLE, value)
    with pytest.raises(UserInputError, match=f"{HEARTBEAT_VARIABLE}='{value}' is not a number of seconds above 0"):
        heartbeat_interval()


def test_the_heartbeat_interval_defaults_to_ten_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(HEARTBEAT_VARIABLE, raising=False)
    assert heartbeat_interval() == 10.0
    monkeypatch.setenv(HEARTBEAT_VARIABLE, "2.5")
    assert heartbeat_interval() == 2.5


def test_episodes_off_a_terminal_are_one_step_whose_end_counts_the_passes(capsys: pytest.CaptureFixture[str]) -> None:
    with episode_progress(3) as advance:
        assert advance is not None
        for outcome in ("passed", "failed", "passed"):
            advance(SimpleNamespace(outcome=outcome))  # type: ignore[arg-type]
    lines = progress_lines(capsys.readouterr().err)
    assert lines[0] == "episodes: started"
    assert re.fullmatch(r"episodes: done in \d+\.\d s, 3/3 done, 2 passed", lines[-1]), lines

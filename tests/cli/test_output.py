"""What the command line draws from the outcomes' own displays: tables, the lines below them, nothing cut, and
every cell as the text it is."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.cli.output import print_outcome
from envforge.ir.display import Display, Table
from envforge.ir.verification import RolloutSummary, TaskRollouts
from envforge.rollouts.run import RolloutReport
from envforge.suite.report import BatchOutcome, SuiteReport
from envforge.validators.results import CheckReport, CheckResult


def test_a_batch_shows_a_row_per_blueprint_and_its_totals_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    made = BatchOutcome(
        "retail.yaml", True, 2.5, "envforge/retail-v1", "out/retail", "f" * 64, tasks=12, stages_cached=5
    )
    broken = BatchOutcome("broken.yaml", False, 0.25, error="line 3: unknown field 'colour'", user_error=True)
    print_outcome(SuiteReport([made, broken], tmp_path, "local", 2, 0, 1000, 150, 10.0), as_json=False)
    out = capsys.readouterr().out
    assert "batch: 1/2 generated" in out and "FAILED" in out
    assert made.cells() == ("retail.yaml", "envforge/retail-v1", "ok", "12", "2.50", "5/5", "out/retail")
    assert broken.cells()[1:4] == ("-", "FAILED", "-")
    totals = "1 packages ok, 1 failed, 12 tasks in 10.0 s: 360 packages/hour, 1.20 tasks/s (local, 2 workers); "
    assert f"{totals}report: {tmp_path / 'suite.json'}\n" in out


def test_a_failed_check_is_listed_below_the_table_unwrapped_with_its_first_twenty_problems(
    capsys: pytest.CaptureFixture[str],
) -> None:
    problems = tuple(
        f"task t{index}: the verifier passes the no-op run of a long, long, long instruction" for index in range(23)
    )
    results = [
        CheckResult("integrity", "files", "passed", "12 files hashed", 0.5),
        CheckResult("gates", "verifier_gates", "failed", "23 verifiers pass a no-op run", 1.25, problems),
    ]
    print_outcome(CheckReport("envforge/retail-v1", results), as_json=False)
    lines = capsys.readouterr().out.splitlines()
    assert "envforge check envforge/retail-v1: 1/2 passed" in lines[0]
    assert "FAILED verifier_gates: 23 verifiers pass a no-op run" in lines
    assert [line for line in lines if line.startswith("  - ")] == [f"  - {problem}" for problem in problems[:20]]
    assert lines[-1] == "  ... and 3 more (see --json or --junit)"


def test_solvability_shows_the_first_twenty_tasks_and_counts_the_rest(capsys: pytest.CaptureFixture[str]) -> None:
    tasks = [
        TaskRollouts(
            task_id=f"t{index}",
            episodes=4,
            passed=1,
            pass_at_1=0.25,
            pass_at_k=0.75,
            pass_hat_k=0.0,
            failures={"model:wrong_answer": 3},
            pool="train",
        )
        for index in range(22)
    ]
    summary = RolloutSummary(
        model="smollm2",
        simulator="scripted",
        k=4,
        keep_pass_rate=(0, 1),
        episodes=88,
        judged=88,
        passed=22,
        mean_pass_at_1=0.25,
        mean_pass_at_k=0.75,
        mean_pass_hat_k=0.0,
        failures_by_class={"model": 66},
        failures_by_reason={},
        pools={},
        prompt_tokens=0,
        completion_tokens=0,
        cached_requests=88,
        requests=88,
        tasks=tasks,
    )
    print_outcome(RolloutReport([], Path("runs/t.jsonl"), summary), as_json=False)
    out = capsys.readouterr().out
    assert tasks[0].cells() == ("t0", "1/4", "0.75", "0.00", "train", "model:wrong_answer 3")
    assert "t19" in out and "t20 " not in out and "  ... 2 more tasks" in out
    assert "mean pass@1 0.250, pass@4 0.750; failures: model 66; 88/88 requests from the cache" in out


class _Bracketed:
    """An outcome whose strings look like rich markup."""

    def as_dict(self) -> dict[str, str]:
        return {}

    def display(self) -> Display:
        row = ("[type=string]", "a [/x] b", "[bold]no[/bold]")
        return Display(
            heading="[/x] heading", tables=[Table("[red]title", ("[b]a", "b", "c"), [row])], lines=["[/x] below"]
        )


def test_a_cell_title_or_line_that_looks_like_markup_prints_literally(capsys: pytest.CaptureFixture[str]) -> None:
    print_outcome(_Bracketed(), as_json=False)
    out = capsys.readouterr().out
    for text in ("[/x] heading", "[red]title", "[b]a", "[type=string]", "a [/x] b", "[bold]no[/bold]", "[/x] below"):
        assert text in out


def test_a_piped_table_keeps_every_long_id_whole_on_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blueprint = "blueprints/a_veterinary_clinic_with_prescriptions_and_visits_and_owners.yaml"
    env_id = "envforge/a_veterinary_clinic_with_prescriptions_and_visits_and_owners-v12"
    made = BatchOutcome(blueprint, True, 2.5, env_id, f"{tmp_path}/out/{env_id}", "f" * 64, tasks=150)
    print_outcome(SuiteReport([made], tmp_path, "local", 2, 0, 1000, 150, 10.0), as_json=False)
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if blueprint in line)
    assert env_id in row and f"{tmp_path}/out/{env_id}" in row and "…" not in out
    assert len(row) > 200

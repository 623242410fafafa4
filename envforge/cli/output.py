"""What the CLI prints: rich tables for people, JSON for machines."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from envforge.bench.report import BenchReport
    from envforge.exporters.run import ExportReport
    from envforge.ir.tasks import TaskSpec, Verdict
    from envforge.ir.verification import RolloutSummary, UIReplaySummary
    from envforge.lint.report import LintReport
    from envforge.pipeline.runner import StageResult
    from envforge.rollouts.reverify import ReverifyReport
    from envforge.rollouts.trajectory import Trajectory
    from envforge.stages.generate import RunResult
    from envforge.suite.report import BatchOutcome, SuiteReport
    from envforge.suite.throughput import SuiteBenchReport
    from envforge.synthesis.run import SynthesisResult
    from envforge.validators.results import CheckResult
    from envforge.validators.ui_replay import ReplayOutcome

console = Console(stderr=True)
stdout = Console()
DETAILS_SHOWN = 20


def _json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, default=str) + "\n")


def _progress() -> Progress:
    """A transient bar on stderr: description, bar, count, elapsed time."""
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"))
    return Progress(*columns, TimeElapsedColumn(), console=console, transient=True)


@contextmanager
def stage_progress(*, enabled: bool) -> Iterator[Callable[[StageResult], None] | None]:
    """A progress bar over the pipeline's stages (on stderr, so stdout stays clean)."""
    if not (enabled and console.is_terminal):
        yield None
        return
    from envforge.stages.registry import STAGES

    with _progress() as progress:
        task = progress.add_task("generating", total=len(STAGES))

        def advance(result: StageResult) -> None:
            progress.update(task, advance=1, description=f"{result.stage} {result.status}")

        yield advance


@contextmanager
def batch_progress(total: int, *, enabled: bool) -> Iterator[Callable[[BatchOutcome], None] | None]:
    """A bar over a batch's blueprints that names each as it finishes (stderr; only on a terminal)."""
    if not (enabled and console.is_terminal):
        yield None
        return
    failed = 0
    with _progress() as progress:
        task = progress.add_task("batch", total=total)

        def advance(outcome: BatchOutcome) -> None:
            nonlocal failed
            failed += not outcome.ok
            finished = f"{Path(outcome.blueprint).stem} {'ok' if outcome.ok else 'FAILED'}"
            progress.update(task, advance=1, description=f"{finished} ({failed} failed)" if failed else finished)

        yield advance


@contextmanager
def passing_progress(label: str, total: int) -> Iterator[Callable[[bool], None] | None]:
    """A progress bar with the pass count so far (stderr; only on a terminal); call it with each item's pass."""
    if not console.is_terminal:
        yield None
        return
    passed = 0
    with _progress() as progress:
        task = progress.add_task(label, total=total)

        def advance(ok: bool) -> None:
            nonlocal passed
            passed += ok
            progress.update(task, advance=1, description=f"{label} ({passed} passed)")

        yield advance


@contextmanager
def episode_progress(total: int) -> Iterator[Callable[[Trajectory], None] | None]:
    with passing_progress("episodes", total) as advance:
        yield None if advance is None else lambda trajectory: advance(trajectory.outcome == "passed")


@contextmanager
def replay_progress(total: int) -> Iterator[Callable[[ReplayOutcome], None] | None]:
    with passing_progress("UI replays", total) as advance:
        yield None if advance is None else lambda outcome: advance(outcome.passed)


def print_ui_replay(summary: UIReplaySummary, package: Path, *, as_json: bool) -> None:
    if as_json:
        _json({"package": str(package), **summary.model_dump(mode="json")})
        return
    table = Table(title=f"golden UI replay in Chromium {summary.chromium}")
    for column in ("app", "replayed", "passed", "median s", "dropped", "page problems", "toasts w/o write"):
        table.add_column(column)
    for app, result in summary.apps.items():
        dropped = ", ".join(f"{reason} {count}" for reason, count in result.failed.items()) or "none"
        table.add_row(
            app,
            str(result.replayed),
            str(result.passed),
            f"{result.median_replay_s:.2f}",
            dropped,
            str(result.page_problems),
            str(result.toasts_without_writes),
        )
    stdout.print(table)
    for problem in summary.problems:
        stdout.print(Text(f"  {problem}"))
    stdout.print(f"report: {package / 'report.md'}; screenshots: {len(summary.screenshots)} under {package / 'report'}")


def print_run(result: RunResult, *, as_json: bool) -> None:
    if as_json:
        _json(
            {
                "env_id": result.env_id,
                "package": str(result.package),
                "package_hash": result.package_hash,
                "stages": [asdict(stage) for stage in result.stages],
            }
        )
        return
    table = Table(title=f"{result.env_id} -> {result.package}")
    for column in ("stage", "status", "seconds", "content hash"):
        table.add_column(column)
    for stage in result.stages:
        table.add_row(stage.stage, stage.status, f"{stage.seconds:.2f}", stage.content_hash[:16])
    stdout.print(table)


def print_batch(report: SuiteReport, *, as_json: bool) -> None:
    if as_json:
        _json(report.as_dict())
        return
    table = Table(title=f"batch: {report.packages_ok}/{len(report.outcomes)} generated")
    for column in ("blueprint", "env id", "result", "tasks", "seconds", "stages cached", "package / error"):
        table.add_column(column, overflow="fold")
    for outcome in report.outcomes:
        stages = outcome.stages_built + outcome.stages_cached
        table.add_row(
            outcome.blueprint,
            outcome.env_id or "-",
            "ok" if outcome.ok else "FAILED",
            str(outcome.tasks) if outcome.ok else "-",
            f"{outcome.seconds:.2f}",
            f"{outcome.stages_cached}/{stages}" if outcome.ok else "-",
            outcome.package if outcome.ok else outcome.error,
        )
    stdout.print(table)
    workers = f", {report.workers} workers" if report.workers is not None else ""
    stdout.print(
        Text(
            f"{report.packages_ok} packages ok, {len(report.outcomes) - report.packages_ok} failed, "
            f"{report.tasks_shipped} tasks in {report.wall_seconds:.1f} s: {report.packages_per_hour:,.0f} packages/hour, "
            f"{report.tasks_per_second:,.2f} tasks/s ({report.executor}{workers}); report: {report.path}"
        ),
        soft_wrap=True,
    )


def print_synthesis(result: SynthesisResult, *, as_json: bool) -> None:
    report, usage = result.report, result.usage
    if as_json:
        _json(
            {
                "env_id": result.run.env_id,
                "package": str(result.run.package),
                "stages": [asdict(stage) for stage in result.run.stages],
                "synthesis": report.model_dump(mode="json"),
                "requests": usage.requests,
                "cache_hits": usage.cached,
            }
        )
        return
    print_run(result.run, as_json=False)
    table = Table(title=f"LLM synthesis: {report.model}")
    table.add_column("what")
    table.add_column("result", overflow="fold")
    writing = report.blueprint
    table.add_row("blueprint", f"accepted after {writing.questions} questions, {writing.repair_rounds} repair rounds")
    for repair in writing.repairs:
        table.add_row("  repaired", repair)
    table.add_row("tasks reviewed", str(report.tasks_reviewed))
    table.add_row("paraphrased", f"{report.paraphrased} (procedural wording kept: {report.kept_procedural})")
    table.add_row("barrier", f"{report.barrier_agreed} agreed, {report.barrier_dropped} dropped")
    table.add_row(
        "tokens",
        f"{report.usage.prompt_tokens} prompt, {report.usage.completion_tokens} completion; "
        f"{usage.requests} requests, {usage.cached} from the cache",
    )
    table.add_row("cost", f"{report.usage.cost:.4f}")
    stdout.print(table)


def print_verdict(task: TaskSpec, verdict: Verdict, outcomes: list[tuple[str, bool]], *, as_json: bool) -> None:
    if as_json:
        calls = [{"tool": name, "ok": ok} for name, ok in outcomes]
        _json({"task": task.id, "instruction": task.instruction, "calls": calls, **verdict.model_dump()})
        return
    stdout.print(f"[bold]{task.id}[/bold] ({task.kind}): {task.instruction}", highlight=False)
    for index, (tool, ok) in enumerate(outcomes, start=1):
        stdout.print(f"  {index}. {tool} {'ok' if ok else 'refused'}", highlight=False)
    if task.expected_answer is not None:
        stdout.print(f"  answer: {task.expected_answer}", highlight=False)
    components = ", ".join(f"{name}={'yes' if value else 'no'}" for name, value in verdict.components.items())
    stdout.print(
        f"verdict: reward {verdict.reward:g} ({'passed' if verdict.passed else 'FAILED'}); {components}",
        highlight=False,
    )
    for reason in verdict.reasons:
        stdout.print(f"  - {reason}", highlight=False)


def print_bench(report: BenchReport, *, as_json: bool) -> None:
    if as_json:
        _json(report.as_dict())
        return
    table = Table(title=f"envforge bench {report.env_id} ({report.samples} samples each)")
    for column in ("measure", "median", "p95", "baseline", "baseline median", "speed-up", "goal", "met"):
        table.add_column(column)
    for row in report.rows:
        table.add_row(*row.cells())
    stdout.print(table)


def print_suite_bench(report: SuiteBenchReport, *, as_json: bool) -> None:
    """The table (or JSON) on stdout; a mismatch or a failed blueprint also on stderr, where it is not missed."""
    if as_json:
        _json(report.as_dict())
    else:
        packages = len(report.blueprints)
        table = Table(
            title=Text(
                f"envforge bench-suite: {packages} blueprints, {report.rows:,} rows, {report.tasks} tasks, "
                f"{report.repeat} cold batches per executor"
            )
        )
        for column in ("executor", "parallel", "wall s (each)", "packages/h", "tasks/s", "vs baseline", "start s"):
            table.add_column(column)
        baseline = report.executors[0]
        for runs in report.executors:
            row = runs.as_dict(baseline)
            table.add_row(
                runs.executor,
                str(runs.parallelism),
                ", ".join(f"{seconds:.1f}" for seconds in row["wall_seconds"]),
                f"{runs.packages_per_hour:,.0f}",
                f"{runs.tasks_per_second:,.2f}",
                "baseline" if runs is baseline else f"{row['ratio']:.2f}x",
                f"{runs.startup_seconds:.1f}" if runs.startup_seconds else "-",
            )
        stdout.print(table)
        runs_total = len(report.executors) * report.repeat
        if not report.mismatches:
            stdout.print(Text(f"package hashes agree across all {runs_total} batches"))
    for outcome in report.failures:
        console.print(Text(f"FAILED {outcome.blueprint}: {outcome.error}", style="bold red"), soft_wrap=True)
    for line in report.mismatches:
        console.print(Text(f"HASH MISMATCH {line}", style="bold red"), soft_wrap=True)


def print_lint(report: LintReport, *, as_json: bool) -> None:
    if as_json:
        _json(report.as_dict())
        return
    for line in report.lines():
        stdout.print(Text(line), soft_wrap=True)


def print_checks(env_id: str, results: list[CheckResult], *, as_json: bool) -> None:
    passed = sum(result.passed for result in results)
    if as_json:
        checks = [{**asdict(result), "passed": result.passed} for result in results]
        _json({"env_id": env_id, "passed": passed == len(results), "checks": checks})
        return
    table = Table(title=Text(f"envforge check {env_id}: {passed}/{len(results)} passed"))
    table.add_column("check", no_wrap=True)
    for column in ("result", "seconds", "message"):
        table.add_column(column, overflow="fold")
    styles = {"passed": ("ok", "green"), "failed": ("FAILED", "bold red"), "skipped": ("skipped", "yellow")}
    for result in results:
        label, style = styles[result.status]
        table.add_row(result.name, Text(label, style=style), f"{result.seconds:.2f}", Text(result.message))
    stdout.print(table)
    # Below the table and unwrapped, so that every problem stays one line a CI log can be searched for.
    for result in results:
        if result.status != "failed":
            continue
        stdout.print(Text(f"FAILED {result.name}: {result.message}"), soft_wrap=True)
        for detail in result.details[:DETAILS_SHOWN]:
            stdout.print(Text(f"  - {detail}"), soft_wrap=True)
        if len(result.details) > DETAILS_SHOWN:
            stdout.print(Text(f"  ... and {len(result.details) - DETAILS_SHOWN} more (see --json or --junit)"))


def print_export(report: ExportReport, *, as_json: bool) -> None:
    if as_json:
        _json(
            {
                "out": str(report.out),
                "environments": report.environments,
                "tasks": report.tasks,
                "rollouts": report.rollouts,
                "files": report.files,
            }
        )
        return
    table = Table(title=Text(f"envforge export -> {report.out}"))
    for column in ("environment", "train tasks", "test tasks"):
        table.add_column(column)
    for env_id, counts in report.tasks.items():
        table.add_row(env_id, str(counts["train"]), str(counts["test"]))
    stdout.print(table)
    for env_id, count in report.rollouts.items():
        stdout.print(Text(f"  {env_id}: {count} passing rollouts added to the SFT data"))
    for name, size in sorted(report.files.items()):
        stdout.print(Text(f"  {name}  ({size:,} bytes)"), soft_wrap=True)


def print_solvability(summary: RolloutSummary, target: Path, *, as_json: bool) -> None:
    if as_json:
        _json({"trajectories": str(target), **summary.model_dump(mode="json", exclude={"tasks"})})
        return
    table = Table(title=Text(f"{summary.model}: {summary.episodes} episodes, k={summary.k}"))
    for column in ("task", "passed", f"pass@{summary.k}", f"pass^{summary.k}", "pool", "failures"):
        table.add_column(column)
    for task in summary.tasks[:DETAILS_SHOWN]:
        failures = ", ".join(f"{name} {count}" for name, count in task.failures.items())
        table.add_row(
            task.task_id,
            f"{task.passed}/{task.episodes}",
            f"{task.pass_at_k:.2f}",
            f"{task.pass_hat_k:.2f}",
            task.pool,
            failures,
        )
    stdout.print(table)
    if len(summary.tasks) > DETAILS_SHOWN:
        stdout.print(Text(f"  ... {len(summary.tasks) - DETAILS_SHOWN} more tasks"))
    classes = ", ".join(f"{name} {count}" for name, count in summary.failures_by_class.items()) or "none"
    stdout.print(
        Text(
            f"mean pass@1 {summary.mean_pass_at_1:.3f}, pass@{summary.k} {summary.mean_pass_at_k:.3f}; "
            f"failures: {classes}; {summary.cached_requests}/{summary.requests} requests from the cache; "
            f"trajectories: {target}"
        ),
        soft_wrap=True,
    )


def print_reverify(report: ReverifyReport, target: Path, *, as_json: bool) -> None:
    if as_json:
        _json(
            {
                "trajectories": str(target),
                "judged": len(report.trajectories),
                "changed": [list(change) for change in report.changed],
                "diverged": [list(item) for item in report.diverged],
            }
        )
        return
    stdout.print(Text(f"re-judged {len(report.trajectories)} trajectories -> {target}"), soft_wrap=True)
    for task_id, sample, old, new in report.changed[:DETAILS_SHOWN]:
        stdout.print(Text(f"  {task_id} sample {sample}: reward {old} -> {new}"))
    stdout.print(Text(f"{len(report.changed)} verdicts changed; {len(report.diverged)} replays diverged"))


def warn_shortfall(package: Path) -> None:
    """Say on stderr when fewer tasks than requested were accepted, and why; and name every WRITE action no
    task makes, with the reason."""
    report = package / "report.json"
    if not report.is_file():
        return
    data = json.loads(report.read_text(encoding="utf-8"))
    shortfall = data.get("shortfall")
    if shortfall:
        print(f"envforge: warning: {shortfall}", file=sys.stderr)
    for action, reason in ((data.get("mix") or {}).get("unreached") or {}).items():
        print(f"envforge: warning: {action}: no task makes it: {reason}", file=sys.stderr)

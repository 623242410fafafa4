"""What the CLI prints: rich tables for people, JSON for machines, and progress bars on stderr.

An outcome that has rows lays them out itself, as plain strings (`cells()` of a row, `rows()`, `lines()`), and
gives its JSON (`as_dict()`); this module chooses the titles and columns and draws them.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Column, Table
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
T = TypeVar("T")


def _json(value: Any) -> None:
    sys.stdout.write(json.dumps(value, indent=2, sort_keys=True, default=str) + "\n")


def _table(title: str | Text, columns: Sequence[str | Column], rows: Iterable[Sequence[str | Text]]) -> None:
    """A table on stdout; a column is its header, or a `Column` where it needs more than the defaults."""
    table = Table(*columns, title=title)
    for row in rows:
        table.add_row(*row)
    stdout.print(table)


@contextmanager
def _bar(
    label: str, total: int, describe: Callable[[T], str], *, enabled: bool = True
) -> Iterator[Callable[[T], None] | None]:
    """A transient bar on stderr, only on a terminal: description, bar, count, elapsed time. It gives what to call
    as each item finishes (the description becomes `describe(item)`), or None when nothing is shown."""
    if not (enabled and console.is_terminal):
        yield None
        return
    columns = (TextColumn("{task.description}"), BarColumn(), TextColumn("{task.completed}/{task.total}"))
    with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as progress:
        task = progress.add_task(label, total=total)

        def advance(item: T) -> None:
            progress.update(task, advance=1, description=describe(item))

        yield advance


def stage_progress(*, enabled: bool) -> AbstractContextManager[Callable[[StageResult], None] | None]:
    """A progress bar over the pipeline's stages (on stderr, so stdout stays clean)."""
    from envforge.stages.registry import STAGES

    return _bar("generating", len(STAGES), lambda result: f"{result.stage} {result.status}", enabled=enabled)


def batch_progress(total: int, *, enabled: bool) -> AbstractContextManager[Callable[[BatchOutcome], None] | None]:
    """A bar over a batch's blueprints that names each as it finishes, and counts the failures."""
    failed = 0

    def describe(outcome: BatchOutcome) -> str:
        nonlocal failed
        failed += not outcome.ok
        finished = f"{Path(outcome.blueprint).stem} {'ok' if outcome.ok else 'FAILED'}"
        return f"{finished} ({failed} failed)" if failed else finished

    return _bar("batch", total, describe, enabled=enabled)


def _passing_progress(
    label: str, total: int, passed: Callable[[T], bool]
) -> AbstractContextManager[Callable[[T], None] | None]:
    """A bar with the pass count so far."""
    count = 0

    def describe(item: T) -> str:
        nonlocal count
        count += passed(item)
        return f"{label} ({count} passed)"

    return _bar(label, total, describe)


def episode_progress(total: int) -> AbstractContextManager[Callable[[Trajectory], None] | None]:
    return _passing_progress("episodes", total, lambda trajectory: trajectory.outcome == "passed")


def replay_progress(total: int) -> AbstractContextManager[Callable[[ReplayOutcome], None] | None]:
    return _passing_progress("UI replays", total, lambda outcome: outcome.passed)


def print_ui_replay(summary: UIReplaySummary, package: Path, *, as_json: bool) -> None:
    if as_json:
        _json({"package": str(package), **summary.model_dump(mode="json")})
        return
    columns = ("app", "replayed", "passed", "median s", "dropped", "page problems", "toasts w/o write")
    rows = [result.cells(app) for app, result in summary.apps.items()]
    _table(f"golden UI replay in Chromium {summary.chromium}", columns, rows)
    for problem in summary.problems:
        stdout.print(Text(f"  {problem}"))
    stdout.print(f"report: {package / 'report.md'}; screenshots: {len(summary.screenshots)} under {package / 'report'}")


def print_run(result: RunResult, *, as_json: bool) -> None:
    """The stages (or JSON), then on stderr what the package's report warns of."""
    if as_json:
        _json(result.as_dict())
    else:
        _stages(result)
    _warn(result.warnings())


def _stages(result: RunResult) -> None:
    _table(f"{result.env_id} -> {result.package}", ("stage", "status", "seconds", "content hash"), result.rows())


def print_batch(report: SuiteReport, *, as_json: bool) -> None:
    if as_json:
        _json(report.as_dict())
        return
    headers = ("blueprint", "env id", "result", "tasks", "seconds", "stages cached", "package / error")
    columns = [Column(header, overflow="fold") for header in headers]
    rows = [outcome.cells() for outcome in report.outcomes]
    _table(f"batch: {report.packages_ok}/{len(report.outcomes)} generated", columns, rows)
    stdout.print(Text(report.summary()), soft_wrap=True)


def print_synthesis(result: SynthesisResult, *, as_json: bool) -> None:
    """The stages and what the model did (or JSON), then on stderr what the package's report warns of."""
    if as_json:
        _json(result.as_dict())
    else:
        _stages(result.run)
        _table(f"LLM synthesis: {result.report.model}", ("what", Column("result", overflow="fold")), result.rows())
    _warn(result.run.warnings())


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
    columns = ("measure", "median", "p95", "baseline", "baseline median", "speed-up", "goal", "met")
    rows = [row.cells() for row in report.rows]
    _table(f"envforge bench {report.env_id} ({report.samples} samples each)", columns, rows)


def print_suite_bench(report: SuiteBenchReport, *, as_json: bool) -> None:
    """The table (or JSON) on stdout; a mismatch or a failed blueprint also on stderr, where it is not missed."""
    if as_json:
        _json(report.as_dict())
    else:
        title = (
            f"envforge bench-suite: {len(report.blueprints)} blueprints, {report.rows:,} rows, {report.tasks} tasks, "
            f"{report.repeat} cold batches per executor"
        )
        columns = ("executor", "parallel", "wall s (each)", "packages/h", "tasks/s", "vs baseline", "start s")
        _table(Text(title), columns, [runs.cells(report.executors[0]) for runs in report.executors])
        if not report.mismatches:
            batches = len(report.executors) * report.repeat
            stdout.print(Text(f"package hashes agree across all {batches} batches"))
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
    columns = (
        Column("check", no_wrap=True),
        *(Column(name, overflow="fold") for name in ("result", "seconds", "message")),
    )
    labels = {"passed": Text("ok", style="green"), "failed": Text("FAILED", style="bold red")}
    labels["skipped"] = Text("skipped", style="yellow")
    rows = ((result.name, labels[result.status], f"{result.seconds:.2f}", Text(result.message)) for result in results)
    _table(Text(f"envforge check {env_id}: {passed}/{len(results)} passed"), columns, rows)
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
        _json(asdict(report))
        return
    rows = ((env_id, str(counts["train"]), str(counts["test"])) for env_id, counts in report.tasks.items())
    _table(Text(f"envforge export -> {report.out}"), ("environment", "train tasks", "test tasks"), rows)
    for env_id, count in report.rollouts.items():
        stdout.print(Text(f"  {env_id}: {count} passing rollouts added to the SFT data"))
    for name, size in sorted(report.files.items()):
        stdout.print(Text(f"  {name}  ({size:,} bytes)"), soft_wrap=True)


def print_solvability(summary: RolloutSummary, target: Path, *, as_json: bool) -> None:
    if as_json:
        _json({"trajectories": str(target), **summary.model_dump(mode="json", exclude={"tasks"})})
        return
    k = summary.k
    rows = [task.cells() for task in summary.tasks[:DETAILS_SHOWN]]
    columns = ("task", "passed", f"pass@{k}", f"pass^{k}", "pool", "failures")
    _table(Text(f"{summary.model}: {summary.episodes} episodes, k={k}"), columns, rows)
    if len(summary.tasks) > DETAILS_SHOWN:
        stdout.print(Text(f"  ... {len(summary.tasks) - DETAILS_SHOWN} more tasks"))
    classes = ", ".join(f"{name} {count}" for name, count in summary.failures_by_class.items()) or "none"
    stdout.print(
        Text(
            f"mean pass@1 {summary.mean_pass_at_1:.3f}, pass@{k} {summary.mean_pass_at_k:.3f}; "
            f"failures: {classes}; {summary.cached_requests}/{summary.requests} requests from the cache; "
            f"trajectories: {target}"
        ),
        soft_wrap=True,
    )


def print_reverify(report: ReverifyReport, target: Path, *, as_json: bool) -> None:
    if as_json:
        judged = len(report.trajectories)
        _json({"trajectories": str(target), "judged": judged, "changed": report.changed, "diverged": report.diverged})
        return
    stdout.print(Text(f"re-judged {len(report.trajectories)} trajectories -> {target}"), soft_wrap=True)
    for task_id, sample, old, new in report.changed[:DETAILS_SHOWN]:
        stdout.print(Text(f"  {task_id} sample {sample}: reward {old} -> {new}"))
    stdout.print(Text(f"{len(report.changed)} verdicts changed; {len(report.diverged)} replays diverged"))


def _warn(warnings: list[str]) -> None:
    for warning in warnings:
        print(f"envforge: warning: {warning}", file=sys.stderr)


def announce(line: str) -> None:
    """A server's line for the user (its address, a token), at once on stderr: stdout may carry its protocol."""
    print(line, file=sys.stderr, flush=True)

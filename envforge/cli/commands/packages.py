"""Commands on a package: a task's oracle or golden UI path replayed (`run-task`), the conformance suite
(`check`), the verifier gate's figures side by side (`report`), the golden UI paths replayed in headless Chromium
(`verify-ui`), and Gymnasium wheels and training datasets made of packages (`export`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from envforge.cli.options import AppKind, AsJson, Package
from envforge.errors import UserInputError


def run_task_command(
    package: Package,
    task_id: Annotated[str, typer.Argument(help="A task id from the package's tasks.jsonl.")],
    oracle: Annotated[bool, typer.Option("--oracle", help="Replay the task's golden tool calls.")] = False,
    via: Annotated[
        Literal["session", "mcp"], typer.Option("--via", help="session (in process) or mcp (through an MCP client).")
    ] = "session",
    app_kind: Annotated[
        AppKind | None, typer.Option("--app", help="web or phone: click the golden UI path in headless Chromium.")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Replay a task's oracle (or, with --app, its golden UI path) and print the verdict of the package's verifier."""
    from envforge.cli.output import print_outcome
    from envforge.runtime.oracle import run_task, run_ui_task

    if not oracle:
        raise UserInputError("run-task needs --oracle (replaying an agent's transcript comes with rollouts)")
    replay = run_task(package, task_id, via=via) if app_kind is None else run_ui_task(package, task_id, app_kind)
    print_outcome(replay, as_json=as_json)
    if not replay.verdict.passed:
        raise typer.Exit(1)


def _print_pytest_suite(wanted: bool) -> None:
    if wanted:
        from envforge.validators.pytest_suite import PYTEST_SUITE

        print(PYTEST_SUITE)
        raise typer.Exit()


def check(
    package: Package,
    junit: Annotated[Path | None, typer.Option("--junit", help="Also write the results as JUnit XML here.")] = None,
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="Gate and replay only this many tasks (an even spread).")
    ] = None,
    as_json: AsJson = False,
    pytest_path: Annotated[
        bool,
        typer.Option(
            "--pytest-path",
            is_eager=True,
            callback=_print_pytest_suite,
            help="Print the folder of this suite as pytest files and exit: `pytest FOLDER --package PATH`.",
        ),
    ] = False,
) -> None:
    """Run the conformance suite on a package (integrity, tool tests, verifier gates, determinism, MCP); exit 1 on any failure."""
    import envforge
    from envforge.cli.output import print_outcome, step_lines

    with step_lines():
        report = envforge.check(package, sample=sample, junit=junit)
    print_outcome(report, as_json=as_json)
    if not report.passed:
        raise typer.Exit(1)


def report(
    packages: Annotated[list[Path], typer.Argument(help="Environment package folders (one column each).")],
    as_json: AsJson = False,
) -> None:
    """The verifier gate per class of cheat and legitimate variation (rows) and package (columns), accepted/played
    from each report.json; exit 1 when a shipped verifier accepts a cheat or rejects a legitimate run."""
    from envforge.cli.output import print_outcome
    from envforge.validators.gate_table import gate_table

    table = gate_table(packages)
    print_outcome(table, as_json=as_json)
    if not table.passed:
        raise typer.Exit(1)


def verify_ui_command(
    package: Package,
    apps: Annotated[str, typer.Option("--app", help="web, phone, or web,phone.")] = "web,phone",
    sample: Annotated[
        int | None, typer.Option("--sample", min=1, help="Replay only this many tasks per app (an even spread).")
    ] = None,
    screenshots: Annotated[
        bool, typer.Option("--screenshots/--no-screenshots", help="Save the main screens under report/screenshots/.")
    ] = True,
    as_json: AsJson = False,
) -> None:
    """Replay golden UI paths in headless Chromium; drop the tasks that fail, with reasons, in report.json."""
    from envforge.cli.output import print_outcome, replay_progress
    from envforge.validators.ui_replay import parse_apps, planned, verify_ui

    chosen = parse_apps(apps)
    with replay_progress(planned(package, chosen, sample)) as progress:
        report = verify_ui(package, chosen, sample=sample, screenshots=screenshots, progress=progress)
    print_outcome(report, as_json=as_json)
    if not report.passed:
        raise typer.Exit(1)


def export(
    packages: Annotated[
        list[Path], typer.Argument(help="Environment package folders, or folders of packages (e.g. generated/).")
    ],
    formats: Annotated[
        list[str],
        typer.Option("--format", "-f", help="wheel (Gymnasium), verl, trl, sft, mcp or all; repeat or comma-separate."),
    ] = ["all"],  # noqa: B006 (typer reads the default from here)
    out: Annotated[Path, typer.Option("-o", "--out", help="Folder that receives the exports.")] = Path("exports"),
    test_fraction: Annotated[
        float, typer.Option("--test-fraction", min=0.0, max=0.9, help="Share of tasks in the test split.")
    ] = 0.1,
    rollouts: Annotated[
        list[Path] | None,
        typer.Option(
            "--rollouts", help="Trajectory files (rollout/validate) whose passing episodes join the SFT data."
        ),
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Export packages as installable Gymnasium wheels and datasets for verl, TRL and SFT (one combined dataset for a suite)."""
    import envforge
    from envforge.cli.output import print_outcome, step_lines

    with step_lines():
        exported = envforge.export(packages, out, formats, test_fraction=test_fraction, rollouts=rollouts)
    print_outcome(exported, as_json=as_json)

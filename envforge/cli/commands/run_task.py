"""`envforge run-task`: replay one task's oracle or golden UI path and print the verdict."""

from __future__ import annotations

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
    from envforge.cli.output import print_verdict
    from envforge.runtime.oracle import run_task, run_ui_task

    if not oracle:
        raise UserInputError("run-task needs --oracle (replaying an agent's transcript comes with rollouts)")
    if app_kind is not None:
        task, verdict, outcomes = run_ui_task(package, task_id, app_kind)
    else:
        task, verdict, outcomes = run_task(package, task_id, via=via)
    print_verdict(task, verdict, outcomes, as_json=as_json)
    if not verdict.passed:
        raise typer.Exit(1)

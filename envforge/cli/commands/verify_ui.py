"""`envforge verify-ui`: replay a package's golden UI paths in headless Chromium."""

from __future__ import annotations

from typing import Annotated, cast, get_args

import typer

from envforge.cli.options import AppKind, AsJson, Package
from envforge.errors import UserInputError


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
    from envforge.cli.output import print_ui_replay, replay_progress
    from envforge.validators.ui_replay import planned, verify_ui

    chosen = parse_apps(apps)
    with replay_progress(planned(package, chosen, sample)) as progress:
        summary = verify_ui(package, chosen, sample=sample, screenshots=screenshots, progress=progress)
    print_ui_replay(summary, package, as_json=as_json)
    if any(result.passed < result.replayed for result in summary.apps.values()):
        raise typer.Exit(1)


def parse_apps(value: str) -> tuple[AppKind, ...]:
    chosen = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [part for part in chosen if part not in get_args(AppKind)]
    if not chosen or unknown:
        raise UserInputError(f"--app: '{value}' is not web, phone or web,phone")
    return cast(tuple[AppKind, ...], chosen)

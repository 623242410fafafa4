"""The `envforge` command line: the app, its global options, its commands, and how errors end it."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from typing import Annotated, Any

import typer

from envforge.cli.commands import bench, blueprints, generate, packages, rollouts, serve, view
from envforge.errors import EnvforgeError, UserInputError

app = typer.Typer(
    name="envforge",
    help="Synthesize interactive, verifiable environments for tool-using LLM agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)


@app.callback()
def options(
    verbose: Annotated[bool, typer.Option("-v", "--verbose", help="Log each stage on stderr.")] = False,
) -> None:
    """Synthesize interactive, verifiable environments for tool-using LLM agents."""
    if verbose:
        logging.getLogger("envforge").setLevel(logging.INFO)


COMMANDS: dict[str, Callable[..., None]] = {
    "new": blueprints.new,
    "lint": blueprints.lint,
    "generate": generate.generate,
    "batch": generate.batch,
    "fuse": generate.fuse,
    "run-task": packages.run_task_command,
    "check": packages.check,
    "report": packages.report,
    "export": packages.export,
    "serve": serve.serve,
    "serve-model": serve.serve_model_command,
    "rollout": rollouts.rollout,
    "validate": rollouts.validate,
    "verify-ui": packages.verify_ui_command,
    "reverify": rollouts.reverify,
    "bench": bench.bench,
    "bench-suite": bench.bench_suite,
    "schema": blueprints.schema,
    "view": view.view,
}
for _name, _command in COMMANDS.items():
    app.command(_name)(_command)


def _fail(message: str, code: int) -> None:
    print(f"envforge: error: {message}", file=sys.stderr)
    sys.exit(code)


def main(argv: list[str] | None = None) -> Any:
    """Entry point: user errors print one line and exit 2; no tracebacks for bad input."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        outcome = app(args=argv, standalone_mode=False)
    except typer.Exit as exc:
        sys.exit(exc.exit_code)
    except typer.Abort:
        _fail("aborted", 130)
    except typer.TyperException as exc:
        # Usage errors (bad option values, unknown options, missing arguments).
        _fail(f"{exc.format_message()} (see `envforge --help`)", 2)
    except UserInputError as exc:
        _fail(str(exc), 2)
    except EnvforgeError as exc:
        _fail(str(exc), 1)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except BrokenPipeError:
        sys.exit(0)
    # Without standalone mode, click returns a command's exit code instead of exiting.
    if isinstance(outcome, int) and outcome:
        sys.exit(outcome)
    return outcome


if __name__ == "__main__":
    main()

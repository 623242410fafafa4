"""Building packages: one from a blueprint or a description (`generate`), many in parallel in a process pool
or on Ray (`batch`), one from 2-3 blueprints with the same person in each (`fuse`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from envforge.cli.options import (
    Address,
    AsJson,
    CacheDir,
    Executor,
    JsonMode,
    MaxRows,
    Offline,
    OutDir,
    Rows,
    Seed,
    Tasks,
    check_address,
    with_options,
)
from envforge.errors import UserInputError
from envforge.ir.row_budget import DEFAULT_MAX_ROWS
from envforge.suite.settings import BatchSettings
from envforge.synthesis.options import DescriptionOptions

DESCRIPTION_OPTIONS: dict[str, Any] = {
    "base_url": Annotated[
        str | None, typer.Option("--base-url", help="With --from-description: the model's OpenAI-compatible endpoint.")
    ],
    "model": Annotated[str | None, typer.Option("--model", help="With --from-description: the model name.")],
    "cache": CacheDir,
    "offline": Offline,
    "repair_rounds": Annotated[
        int, typer.Option("--repair-rounds", min=0, max=20, help="Times a blueprint error is sent back to the model.")
    ],
    "price_prompt": Annotated[
        float, typer.Option("--price-prompt", min=0.0, help="Price per million prompt tokens, for the cost report.")
    ],
    "price_completion": Annotated[
        float, typer.Option("--price-completion", min=0.0, help="Price per million completion tokens.")
    ],
    "json_mode": Annotated[
        JsonMode, typer.Option("--json-mode", help="How schemas reach the model: vllm (structured_outputs) or openai.")
    ],
}
"""The option of each field of `DescriptionOptions` (`generate --from-description`)."""


@with_options(DescriptionOptions, DESCRIPTION_OPTIONS)
def generate(
    blueprint: Annotated[
        str | None, typer.Argument(help="Blueprint YAML file, or a shipped name such as 'retail'.")
    ] = None,
    out: OutDir = Path("generated"),
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    max_rows: MaxRows = DEFAULT_MAX_ROWS,
    force: Annotated[bool, typer.Option("--force", help="Rebuild every stage, ignoring the cache.")] = False,
    from_stage: Annotated[
        str | None, typer.Option("--from", help="Rebuild this stage and everything after it.")
    ] = None,
    as_json: AsJson = False,
    from_description: Annotated[
        str | None,
        typer.Option("--from-description", help="Have an LLM write the blueprint from this description instead."),
    ] = None,
    *,
    llm: DescriptionOptions,
) -> None:
    """Generate one environment package from a blueprint (offline, deterministic, resumable), or from a
    description an LLM turns into a blueprint (--from-description; recorded answers replay with --offline)."""
    import envforge

    if from_description is not None:
        from envforge.cli.output import print_outcome, stage_progress
        from envforge.pipeline.dag import GenerateConfig
        from envforge.synthesis.description import build_synthesis_config
        from envforge.synthesis.run import synthesize_environment

        if blueprint is not None:
            raise UserInputError(
                f"give a BLUEPRINT or --from-description, not both (got '{blueprint}' and a description)"
            )
        synthesis = build_synthesis_config(from_description, llm)
        config = GenerateConfig(seed=seed, rows=rows, tasks=tasks, max_rows=max_rows)
        with stage_progress(enabled=not as_json) as on_stage:
            synthesized = synthesize_environment(
                synthesis, out, config, force=force, from_stage=from_stage, on_stage=on_stage
            )
        print_outcome(synthesized, as_json=as_json)
        return
    if blueprint is None:
        raise UserInputError(
            "generate needs a BLUEPRINT (a YAML file or a shipped name such as 'retail') or --from-description"
        )
    from envforge.ir.loading import load_run_blueprint
    from envforge.suite.blueprints import resolve_blueprint

    # Before the progress bar, which loads every stage: a bad blueprint is refused in a fraction of a second.
    path = resolve_blueprint(blueprint)
    load_run_blueprint(path, rows, max_rows)
    from envforge.cli.output import print_outcome, stage_progress

    with stage_progress(enabled=not as_json) as on_stage:
        result = envforge.generate(
            path,
            out,
            seed=seed,
            rows=rows,
            tasks=tasks,
            max_rows=max_rows,
            force=force,
            from_stage=from_stage,
            on_stage=on_stage,
        )
    print_outcome(result, as_json=as_json)


BATCH_OPTIONS: dict[str, Any] = {
    "seed": Seed,
    "rows": Rows,
    "tasks": Tasks,
    "max_rows": MaxRows,
    "workers": Annotated[int, typer.Option("--workers", min=1, max=64, help="Parallel processes.")],
    "executor": Annotated[
        Executor,
        typer.Option("--executor", help="local (a process pool of --workers) or ray (one Ray task per blueprint)."),
    ],
    "address": Address,
}
"""The option of each field of `BatchSettings`."""


def batch_settings(**values: Any) -> BatchSettings:
    """`BatchSettings` from the options of `batch`, once --address is known to go with --executor ray."""
    check_address(values["address"], values["executor"])
    return BatchSettings(**values)


@with_options(BatchSettings, BATCH_OPTIONS, batch_settings)
def batch(
    blueprints: Annotated[
        list[str],
        typer.Argument(
            help="Blueprint files, shipped names, folders (their *.yaml and *.yml) or list files "
            "(@suite.txt or suite.txt: one file, folder or shipped name per line; # comments)."
        ),
    ],
    out: OutDir = Path("generated"),
    *,
    settings: BatchSettings,
    as_json: AsJson = False,
) -> None:
    """Generate many packages in parallel, a failing blueprint never stopping the others; write OUT/suite.json.
    Rerunning resumes: finished stages and packages come from the cache."""
    from envforge.cli.output import batch_progress, print_outcome
    from envforge.suite.run import batch_suite

    progress, on_start = batch_progress(enabled=not as_json)
    report = batch_suite(blueprints, out, settings, progress, on_start)
    print_outcome(report, as_json=as_json)
    if report.exit_code:
        raise typer.Exit(report.exit_code)


def fuse(
    blueprints: Annotated[
        list[str], typer.Argument(help="2 or 3 blueprint files or shipped names; the first one's person is the user.")
    ],
    out: OutDir = Path("generated"),
    domain: Annotated[
        str | None,
        typer.Option("--domain", help="Domain id of the fused environment (default: the domains joined by _)."),
    ] = None,
    identity: Annotated[
        str | None,
        typer.Option(
            "--identity",
            help="The unique person field that names the same human in each domain (default: one they share, email first).",
        ),
    ] = None,
    prefix: Annotated[
        list[str] | None,
        typer.Option(
            "--prefix", help="DOMAIN=PREFIX: what that domain's names are namespaced with (default: the domain id)."
        ),
    ] = None,
    save: Annotated[
        Path | None,
        typer.Option("--save", help="Also write the compose: blueprint here, to add bridges to and generate again."),
    ] = None,
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    max_rows: MaxRows = DEFAULT_MAX_ROWS,
    force: Annotated[bool, typer.Option("--force", help="Overwrite --save's file, and rebuild every stage.")] = False,
    as_json: AsJson = False,
) -> None:
    """Fuse 2-3 domains into one environment: namespaced tables and tools, the same person linked across them by
    a shared identity, merged policies, and tasks of which at least a third cross domains."""
    import envforge
    from envforge.cli.output import print_outcome, stage_progress

    with stage_progress(enabled=not as_json) as on_stage:
        result = envforge.fuse(
            blueprints,
            out,
            domain=domain,
            identity=identity,
            prefixes=prefix or [],
            save=save,
            seed=seed,
            rows=rows,
            tasks=tasks,
            max_rows=max_rows,
            force=force,
            on_stage=on_stage,
        )
    print_outcome(result, as_json=as_json)

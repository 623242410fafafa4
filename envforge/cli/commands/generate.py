"""`envforge generate`: one package from a blueprint, or from a description an LLM turns into one."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

import typer

from envforge.cli.options import AsJson, CacheDir, Offline, OutDir, Rows, Seed, Tasks
from envforge.errors import UserInputError

# The values of envforge.synthesis.calls.JsonMode: typer needs them to build the commands, and importing
# that module takes seconds.
JsonMode = Literal["vllm", "openai"]


def generate(
    blueprint: Annotated[
        str | None, typer.Argument(help="Blueprint YAML file, or a shipped name such as 'retail'.")
    ] = None,
    out: OutDir = Path("generated"),
    seed: Seed = 0,
    rows: Rows = 1000,
    tasks: Tasks = 150,
    force: Annotated[bool, typer.Option("--force", help="Rebuild every stage, ignoring the cache.")] = False,
    from_stage: Annotated[
        str | None, typer.Option("--from", help="Rebuild this stage and everything after it.")
    ] = None,
    as_json: AsJson = False,
    from_description: Annotated[
        str | None,
        typer.Option("--from-description", help="Have an LLM write the blueprint from this description instead."),
    ] = None,
    base_url: Annotated[
        str | None, typer.Option("--base-url", help="With --from-description: the model's OpenAI-compatible endpoint.")
    ] = None,
    model: Annotated[str | None, typer.Option("--model", help="With --from-description: the model name.")] = None,
    cache: CacheDir = None,
    offline: Offline = False,
    repair_rounds: Annotated[
        int, typer.Option("--repair-rounds", min=0, max=20, help="Times a blueprint error is sent back to the model.")
    ] = 3,
    price_prompt: Annotated[
        float, typer.Option("--price-prompt", min=0.0, help="Price per million prompt tokens, for the cost report.")
    ] = 0.0,
    price_completion: Annotated[
        float, typer.Option("--price-completion", min=0.0, help="Price per million completion tokens.")
    ] = 0.0,
    json_mode: Annotated[
        JsonMode, typer.Option("--json-mode", help="How schemas reach the model: vllm (structured_outputs) or openai.")
    ] = "vllm",
) -> None:
    """Generate one environment package from a blueprint (offline, deterministic, resumable), or from a
    description an LLM turns into a blueprint (--from-description; recorded answers replay with --offline)."""
    import envforge
    from envforge.cli.output import print_run, print_synthesis, stage_progress, warn

    if from_description is not None:
        from envforge.pipeline.dag import GenerateConfig
        from envforge.synthesis.description import build_synthesis_config
        from envforge.synthesis.run import synthesize_environment

        if blueprint is not None:
            raise UserInputError(
                f"give a BLUEPRINT or --from-description, not both (got '{blueprint}' and a description)"
            )
        llm = build_synthesis_config(
            from_description,
            base_url=base_url,
            model=model,
            cache=cache,
            offline=offline,
            repair_rounds=repair_rounds,
            price_prompt=price_prompt,
            price_completion=price_completion,
            json_mode=json_mode,
        )
        config = GenerateConfig(seed=seed, rows=rows, tasks=tasks)
        with stage_progress(enabled=not as_json) as on_stage:
            synthesized = synthesize_environment(
                llm, out, config, force=force, from_stage=from_stage, on_stage=on_stage
            )
        print_synthesis(synthesized, as_json=as_json)
        warn(synthesized.run.warnings())
        return
    if blueprint is None:
        raise UserInputError(
            "generate needs a BLUEPRINT (a YAML file or a shipped name such as 'retail') or --from-description"
        )
    with stage_progress(enabled=not as_json) as on_stage:
        result = envforge.generate(
            blueprint, out, seed=seed, rows=rows, tasks=tasks, force=force, from_stage=from_stage, on_stage=on_stage
        )
    print_run(result, as_json=as_json)
    warn(result.warnings())

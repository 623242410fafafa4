"""`envforge generate --from-description`: an LLM writes the blueprint, then the usual pipeline runs on it."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

from rich.console import Console
from rich.table import Table

from envforge.errors import UserInputError
from envforge.llm.cache import default_cache_dir
from envforge.pipeline.dag import GenerateConfig
from envforge.synthesis.calls import JsonMode
from envforge.synthesis.run import SynthesisConfig, SynthesisResult, synthesize_environment

OFFLINE_URL = "http://offline.invalid/v1"
"""Never contacted: with --offline every answer comes from the cache."""
DRAFTS = Path("runs") / "synthesis"


def describe_config(
    description: str,
    *,
    base_url: str | None,
    model: str | None,
    cache: Path | None,
    offline: bool,
    repair_rounds: int,
    price_prompt: float,
    price_completion: float,
    json_mode: JsonMode,
) -> SynthesisConfig:
    """The options of `generate --from-description`, checked."""
    if not description.strip():
        raise UserInputError("--from-description: the description is empty; describe the domain in a sentence or two")
    if not model:
        raise UserInputError("--from-description needs --model: the name the endpoint serves (part of the cache key)")
    if not base_url and not offline:
        raise UserInputError("--from-description needs --base-url (e.g. http://127.0.0.1:8000/v1), or --offline")
    return SynthesisConfig(
        description=" ".join(description.split()),
        model=model,
        base_url=base_url or OFFLINE_URL,
        api_key=os.environ.get("OPENAI_API_KEY", "EMPTY"),
        cache=cache or default_cache_dir() / "llm",
        offline=offline,
        repair_rounds=repair_rounds,
        price_prompt=price_prompt,
        price_completion=price_completion,
        json_mode=json_mode,
        drafts=DRAFTS,
    )


def generate_from_description(
    config: SynthesisConfig,
    out: Path,
    generate: GenerateConfig,
    *,
    force: bool,
    from_stage: str | None,
    as_json: bool,
) -> SynthesisResult:
    from envforge.cli.output import stage_progress

    with stage_progress(enabled=not as_json) as on_stage:
        result = synthesize_environment(config, out, generate, force=force, from_stage=from_stage, on_stage=on_stage)
    print_synthesis(result, as_json=as_json)
    return result


def print_synthesis(result: SynthesisResult, *, as_json: bool) -> None:
    report, usage = result.report, result.usage
    if as_json:
        payload = {
            "env_id": result.run.env_id,
            "package": str(result.run.package),
            "stages": [asdict(stage) for stage in result.run.stages],
            "synthesis": report.model_dump(mode="json"),
            "requests": usage.requests,
            "cache_hits": usage.cached,
        }
        print(json.dumps(payload, indent=2, sort_keys=True))
        return
    from envforge.cli.output import print_run

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
    Console().print(table)

"""`generate --from-description`: the LLM writes the blueprint, the pipeline builds it, the LLM words and checks.

1. `BlueprintWriter` writes and validates a blueprint (nothing is written to the output folder if it fails).
2. The accepted blueprint YAML is the source of an ordinary pipeline run, staged under `OUT/.cache/synthesis`
   and asked for spare tasks, so the barrier's drops are backfilled; every stage caches as usual.
3. The review pass rewords and checks the gate's accepted tasks (`review.py`).
4. The package stage builds the package again from the reviewed verifiers artifact; `synthesis.json` joins
   it, listed in the manifest; the folder is swapped in atomically at `OUT/<domain>`.

Every call goes through one `LLMClient` with its request-hash cache, so a rerun asks nothing, and
greedy decoding plus recorded answers make the package byte-identical.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from envforge.errors import UserInputError
from envforge.hashing import hash_bytes
from envforge.llm import CacheMode, LLMClient, ResponseCache, Usage
from envforge.pipeline.app_artifacts import UITasksArtifact
from envforge.pipeline.artifacts import (
    Artifact,
    BlueprintArtifact,
    PackageArtifact,
    StateArtifact,
    ToolGraphArtifact,
    dump_json,
    dump_manifest,
)
from envforge.pipeline.dag import MAX_TASKS, GenerateConfig
from envforge.pipeline.registry import ROOT, STAGES
from envforge.pipeline.runner import CACHE_DIR, RunResult, StageResult, run_pipeline
from envforge.pipeline.store import read_files, write_dir_atomic, write_file_atomic
from envforge.pipeline.task_artifacts import TaskSetArtifact, VerifierArtifact
from envforge.synthesis.calls import JsonMode
from envforge.synthesis.report import (
    SYNTHESIS_FILE,
    BlueprintWriting,
    LLMUsage,
    SynthesisReport,
    TaskReview,
    render_synthesis,
)
from envforge.synthesis.review import Reviewer, apply_reviews, index_rows, review_tasks
from envforge.synthesis.writer import DEFAULT_REPAIR_ROUNDS, BlueprintWriter, WrittenBlueprint

STAGING = "synthesis"
SPARE_FACTOR = 2
"""The verifiers stage is asked for this many times the wanted tasks: spares for the barrier to drop."""
T = TypeVar("T")


@dataclass(frozen=True)
class SynthesisConfig:
    """The model side of `generate --from-description`."""

    description: str
    model: str
    base_url: str
    api_key: str = "EMPTY"
    cache: Path | None = None
    """Response cache folder; None asks every request anew and records nothing."""
    offline: bool = False
    """Serve every request from the cache; a miss is an error."""
    repair_rounds: int = DEFAULT_REPAIR_ROUNDS
    price_prompt: float = 0.0
    price_completion: float = 0.0
    json_mode: JsonMode = "vllm"
    drafts: Path = Path("runs") / "synthesis"
    """Where a rejected blueprint draft is saved for inspection."""
    concurrency: int = 4


@dataclass
class SynthesisResult:
    run: RunResult
    """The pipeline run; `package` is the published package."""
    report: SynthesisReport
    usage: Usage
    """This run's calls, cache hits included."""
    written: WrittenBlueprint


def make_client(config: SynthesisConfig) -> LLMClient:
    if config.offline and config.cache is None:
        raise UserInputError("--offline needs --cache: the folder of recorded responses to replay")
    cache = None
    if config.cache is not None:
        mode: CacheMode = "replay" if config.offline else "use"
        cache = ResponseCache(config.cache, mode)
    return LLMClient(config.base_url, config.model, api_key=config.api_key, cache=cache)


def _run(client: LLMClient, work: Callable[[], Awaitable[T]]) -> T:
    """Run one async part; the HTTP client belongs to its event loop, so it is closed with it."""

    async def main() -> T:
        try:
            return await work()
        finally:
            await client.close()

    return asyncio.run(main())


def synthesize_environment(
    config: SynthesisConfig,
    out: Path,
    generate: GenerateConfig,
    *,
    client: LLMClient | None = None,
    force: bool = False,
    from_stage: str | None = None,
    on_stage: Callable[[StageResult], None] | None = None,
) -> SynthesisResult:
    """Write, build, review and publish one environment package from a description."""
    client = client or make_client(config)
    writer = BlueprintWriter(
        client, config.description, repair_rounds=config.repair_rounds, drafts=config.drafts, mode=config.json_mode
    )
    written = _run(client, writer.write)
    staging = out / CACHE_DIR / STAGING
    source = staging / f"{written.blueprint.domain}.yaml"
    write_file_atomic(source, written.text.encode())
    widened = generate.model_copy(update={"tasks": min(MAX_TASKS, generate.tasks * SPARE_FACTOR)})
    run = run_pipeline(source, staging, widened, force=force, from_stage=from_stage, on_stage=on_stage)
    artifacts = _stage_artifacts(staging / CACHE_DIR / written.blueprint.domain, written)
    verified = _need(artifacts, "verifiers", VerifierArtifact)
    graph = _need(artifacts, "toolgraph", ToolGraphArtifact).toolgraph
    rows = index_rows(written.blueprint, graph, _need(artifacts, "state", StateArtifact))
    reviewer = Reviewer(client, written.blueprint, graph, rows, config.json_mode, config.concurrency)
    reviewed = _run(client, lambda: review_tasks(reviewer, verified.accepted, generate.tasks))
    report = _report(config, client, written, [review for _, review in reviewed])
    if not any(review.barrier_agreed for _, review in reviewed):
        _reject_empty(config, written, verified, report, out)
    package = _build_package(artifacts, apply_reviews(verified, reviewed, generate.tasks), generate, report)
    target = out / written.blueprint.domain
    if not (target.is_dir() and read_files(target) == package):
        write_dir_atomic(target, package)
    published = RunResult(env_id=run.env_id, domain=run.domain, package=target, stages=run.stages)
    return SynthesisResult(run=published, report=report, usage=client.usage, written=written)


A = TypeVar("A", bound=Artifact)


class NoTaskSurvivedError(UserInputError):
    """Every task was dropped: a package without tasks would fail its own conformance check."""


def _reject_empty(
    config: SynthesisConfig, written: WrittenBlueprint, verified: VerifierArtifact, report: SynthesisReport, out: Path
) -> None:
    saved = config.drafts / f"{written.blueprint.domain}-review.json"
    write_file_atomic(saved, dump_json(report.model_dump(mode="json")))
    if not verified.accepted:
        reasons = sorted({result.reason.split(":", 1)[0] for result in verified.results}) or ["no candidate tasks"]
        why = f"the verifier gate accepted none of {len(verified.results)} candidate tasks ({', '.join(reasons)})"
    else:
        first = report.reviews[0]
        why = (
            f"the information barrier disagreed on all {len(report.reviews)} tasks "
            f"(first, {first.task_id}: {first.barrier_reason})"
        )
    raise NoTaskSurvivedError(
        f"no task survived for '{written.blueprint.domain}': {why}; no package was written to {out}; "
        f"the review is saved in {saved}"
    )


def _need(artifacts: dict[str, Artifact], name: str, kind: type[A]) -> A:
    artifact = artifacts[name]
    if not isinstance(artifact, kind):
        raise TypeError(f"stage '{name}' produced {type(artifact).__name__}, expected {kind.__name__}")
    return artifact


def _stage_artifacts(run_dir: Path, written: WrittenBlueprint) -> dict[str, Artifact]:
    """Every stage's output as the run directory holds it (the runner has just written or verified each)."""
    artifacts: dict[str, Artifact] = {ROOT: BlueprintArtifact(blueprint=written.blueprint)}
    for stage in STAGES:
        artifacts[stage.name] = stage.output.from_files(read_files(run_dir / stage.name))
    return artifacts


def _build_package(
    artifacts: dict[str, Artifact], verified: VerifierArtifact, generate: GenerateConfig, report: SynthesisReport
) -> dict[str, bytes]:
    """The package stage's own build, on the reviewed tasks and the requested count, plus synthesis.json."""
    stage = STAGES[-1]
    candidates = _need(artifacts, "tasks", TaskSetArtifact)
    inputs = {name: artifacts[name] for name in stage.inputs}
    inputs["verifiers"] = verified
    inputs["tasks"] = candidates.model_copy(update={"requested": generate.tasks})
    # The UI tasks were posed for every task of the widened run; ship those of the tasks the review kept.
    kept = {task.id for task in verified.accepted}
    posed = _need(artifacts, "uitasks", UITasksArtifact)
    inputs["uitasks"] = UITasksArtifact(
        tasks=[task for task in posed.tasks if task.task_id in kept],
        dropped=[drop for drop in posed.dropped if drop.task_id in kept],
    )
    package = stage.build(inputs, generate)
    if not isinstance(package, PackageArtifact):
        raise TypeError("the last stage must produce the package")
    files = dict(package.files)
    files[SYNTHESIS_FILE] = dump_json(report.model_dump(mode="json"))
    files["report.md"] = files["report.md"] + render_synthesis(report).encode()
    del files["envforge.yaml"]
    manifest = package.manifest.model_copy(
        update={"files": {name: hash_bytes(data) for name, data in sorted(files.items())}}
    )
    files["envforge.yaml"] = dump_manifest(manifest)
    return files


def _report(
    config: SynthesisConfig, client: LLMClient, written: WrittenBlueprint, reviews: list[TaskReview]
) -> SynthesisReport:
    usage = client.usage
    return SynthesisReport(
        description=config.description,
        model=config.model,
        blueprint=BlueprintWriting(
            questions=written.steps,
            repair_rounds=len(written.repairs),
            repairs=[f"{repair.step}: {repair.error}" for repair in written.repairs],
            notes=written.notes,
        ),
        tasks_reviewed=len(reviews),
        paraphrased=sum(review.paraphrased for review in reviews),
        kept_procedural=sum(not review.paraphrased for review in reviews),
        barrier_agreed=sum(review.barrier_agreed for review in reviews),
        barrier_dropped=sum(not review.barrier_agreed for review in reviews),
        reviews=reviews,
        usage=LLMUsage(
            requests=usage.requests,
            prompt_tokens=usage.prompt_tokens,
            completion_tokens=usage.completion_tokens,
            price_prompt=config.price_prompt,
            price_completion=config.price_completion,
            cost=round(usage.cost(config.price_prompt, config.price_completion), 6),
        ),
    )

"""`generate --from-description`: the LLM writes the blueprint, the pipeline builds it, the LLM words and checks.

1. `BlueprintWriter` writes and validates a blueprint (nothing is written to the output folder if it fails).
2. The accepted blueprint YAML, staged under `OUT/.cache/synthesis`, is the source of an ordinary pipeline run
   whose config carries the review (`GenerateConfig.review`): the gate accepts spare tasks, so the review's
   drops are backfilled, and every stage caches as usual.
3. The pipeline's `review` stage calls `LLMReviewer`, which rewords and checks the gate's accepted tasks
   (`review.py`) and writes the synthesis report; the package stage ships it as `synthesis.json`.

Every call goes through one `LLMClient` with its request-hash cache, so a rerun asks nothing, and
greedy decoding plus recorded answers make the package byte-identical.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from envforge.errors import UserInputError
from envforge.files import dump_json, write_file_atomic
from envforge.ir.display import Display, Table
from envforge.ir.synthesis import BlueprintWriting, LLMUsage, ReviewConfig, SynthesisReport, TaskReview
from envforge.llm import CacheMode, LLMClient, ResponseCache, Usage
from envforge.pipeline.dag import GenerateConfig
from envforge.pipeline.runner import StageResult
from envforge.stages.generate import CACHE_DIR, RunResult, run_pipeline
from envforge.stages.review.artifact import SYNTHESIS, ReviewArtifact
from envforge.stages.review.stage import ReviewInputs
from envforge.stages.verifiers.artifact import VerifierArtifact
from envforge.synthesis.options import DescriptionOptions
from envforge.synthesis.review import Reviewer, apply_reviews, index_rows, review_tasks
from envforge.synthesis.writer import BlueprintWriter, WrittenBlueprint

STAGING = "synthesis"
T = TypeVar("T")


@dataclass(frozen=True, kw_only=True)
class SynthesisConfig(DescriptionOptions):
    """The model side of `generate --from-description`: its options, with the model and endpoint known, and the
    description; `cache` None asks every request anew and records nothing."""

    description: str
    model: str
    base_url: str
    api_key: str = "EMPTY"
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "env_id": self.run.env_id,
            "package": str(self.run.package),
            "stages": [asdict(stage) for stage in self.run.stages],
            "synthesis": self.report.model_dump(mode="json"),
            "requests": self.usage.requests,
            "cache_hits": self.usage.cached,
        }

    def display(self) -> Display:
        """The stages, then what the model did and with what result: a row per step, the tokens and the cost."""
        report = self.report
        writing, usage = report.blueprint, report.usage
        rows = [
            ("blueprint", f"accepted after {writing.questions} questions, {writing.repair_rounds} repair rounds"),
            *(("  repaired", repair) for repair in writing.repairs),
            ("tasks reviewed", str(report.tasks_reviewed)),
            ("paraphrased", f"{report.paraphrased} (procedural wording kept: {report.kept_procedural})"),
            ("barrier", f"{report.barrier_agreed} agreed, {report.barrier_dropped} dropped"),
            (
                "tokens",
                f"{usage.prompt_tokens} prompt, {usage.completion_tokens} completion; "
                f"{self.usage.requests} requests, {self.usage.cached} from the cache",
            ),
            ("cost", f"{usage.cost:.4f}"),
        ]
        synthesis = Table(f"LLM synthesis: {report.model}", ("what", "result"), rows)
        return Display(tables=[self.run.table(), synthesis], warnings=self.run.warnings())


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
    source = out / CACHE_DIR / STAGING / f"{written.blueprint.domain}.yaml"
    write_file_atomic(source, written.text.encode())
    reviewed = generate.model_copy(update={"review": review_config(config, written, client.usage)})
    reviewer = LLMReviewer(client, config, out)
    run = run_pipeline(source, out, reviewed, reviewer=reviewer, force=force, from_stage=from_stage, on_stage=on_stage)
    report = SynthesisReport.model_validate_json((run.package / SYNTHESIS).read_bytes())
    return SynthesisResult(run=run, report=report, usage=client.usage, written=written)


def review_config(config: SynthesisConfig, written: WrittenBlueprint, usage: Usage) -> ReviewConfig:
    """What the review stage is keyed on: the description, model and prices, and what writing the blueprint took."""
    return ReviewConfig(
        description=config.description,
        model=config.model,
        json_mode=config.json_mode,
        price_prompt=config.price_prompt,
        price_completion=config.price_completion,
        writing=BlueprintWriting(
            questions=written.steps,
            repair_rounds=len(written.repairs),
            repairs=[f"{repair.step}: {repair.error}" for repair in written.repairs],
            notes=written.notes,
        ),
        writer_requests=usage.requests,
        writer_prompt_tokens=usage.prompt_tokens,
        writer_completion_tokens=usage.completion_tokens,
    )


class NoTaskSurvivedError(UserInputError):
    """Every task was dropped: a package without tasks would fail its own conformance check."""


@dataclass
class LLMReviewer:
    """The `review` stage's service: reword and check the gate's accepted tasks, and report what it took."""

    client: LLMClient
    config: SynthesisConfig
    out: Path
    """The output folder, named when no task survives."""

    def __call__(self, inputs: ReviewInputs, config: GenerateConfig, review: ReviewConfig) -> ReviewArtifact:
        blueprint, graph, verified = inputs.blueprint.blueprint, inputs.toolgraph.toolgraph, inputs.verifiers
        rows = index_rows(blueprint, graph, inputs.state)
        reviewer = Reviewer(self.client, blueprint, graph, rows, review.json_mode, self.config.concurrency)
        before = replace(self.client.usage)
        results = _run(self.client, lambda: review_tasks(reviewer, verified.accepted, config.tasks))
        report = _report(review, self.client.usage, before, [task_review for _, task_review in results])
        if not any(task_review.barrier_agreed for _, task_review in results):
            self._reject_empty(blueprint.domain, verified, report)
        applied = apply_reviews(verified, results, config.tasks)
        return ReviewArtifact(
            accepted=applied.accepted, sources=applied.sources, results=applied.results, synthesis=report
        )

    def _reject_empty(self, domain: str, verified: VerifierArtifact, report: SynthesisReport) -> None:
        saved = self.config.drafts / f"{domain}-review.json"
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
            f"no task survived for '{domain}': {why}; no package was written to {self.out}; "
            f"the review is saved in {saved}"
        )


def _report(review: ReviewConfig, usage: Usage, before: Usage, reviews: list[TaskReview]) -> SynthesisReport:
    """The synthesis report: the blueprint writing and its calls (from `review`) plus the review's own calls."""
    total = Usage(
        requests=review.writer_requests + usage.requests - before.requests,
        prompt_tokens=review.writer_prompt_tokens + usage.prompt_tokens - before.prompt_tokens,
        completion_tokens=review.writer_completion_tokens + usage.completion_tokens - before.completion_tokens,
    )
    return SynthesisReport(
        description=review.description,
        model=review.model,
        blueprint=review.writing,
        tasks_reviewed=len(reviews),
        paraphrased=sum(task_review.paraphrased for task_review in reviews),
        kept_procedural=sum(not task_review.paraphrased for task_review in reviews),
        barrier_agreed=sum(task_review.barrier_agreed for task_review in reviews),
        barrier_dropped=sum(not task_review.barrier_agreed for task_review in reviews),
        reviews=reviews,
        usage=LLMUsage(
            requests=total.requests,
            prompt_tokens=total.prompt_tokens,
            completion_tokens=total.completion_tokens,
            price_prompt=review.price_prompt,
            price_completion=review.price_completion,
            cost=round(total.cost(review.price_prompt, review.price_completion), 6),
        ),
    )

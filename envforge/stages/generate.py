"""Generate one package: run the DAG for a blueprint, then publish the package stage's files atomically."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from envforge.files import clean_leftovers
from envforge.ir.loading import load_blueprint
from envforge.package import publish
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig
from envforge.pipeline.runner import StageResult, run_stages
from envforge.stages.package.artifact import PackageArtifact
from envforge.stages.registry import ROOT, pipeline_stages
from envforge.stages.review.stage import TaskReviewer

CACHE_DIR = ".cache"


@dataclass
class RunResult:
    env_id: str
    domain: str
    package: Path
    stages: list[StageResult] = field(default_factory=list)

    @property
    def package_hash(self) -> str:
        return self.stages[-1].content_hash


def run_pipeline(
    source: Path,
    out_dir: Path,
    config: GenerateConfig,
    *,
    reviewer: TaskReviewer | None = None,
    force: bool = False,
    from_stage: str | None = None,
    on_stage: Callable[[StageResult], None] | None = None,
) -> RunResult:
    """Generate the package for `source` into `out_dir/<domain>/`; resumable and idempotent."""
    blueprint = load_blueprint(source)
    # This package's leftovers only: in a batch, other workers are filling their own temporary folders here.
    clean_leftovers(out_dir, blueprint.domain)
    artifacts, stages = run_stages(
        pipeline_stages(reviewer),
        {ROOT: BlueprintArtifact(blueprint=blueprint)},
        out_dir / CACHE_DIR / blueprint.domain,
        config,
        force=force,
        from_stage=from_stage,
        on_stage=on_stage,
    )
    package = artifacts[stages[-1].stage]
    if not isinstance(package, PackageArtifact):
        raise TypeError("the last stage must produce the package")
    target = out_dir / blueprint.domain
    publish(target, package.files)
    return RunResult(env_id=blueprint.env_id, domain=blueprint.domain, package=target, stages=stages)

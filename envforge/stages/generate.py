"""Generate one package: run the DAG for a blueprint, then publish the package stage's files atomically."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from envforge.files import clean_leftovers
from envforge.ir.display import Display, Table
from envforge.ir.loading import load_run_blueprint
from envforge.package import publish
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig
from envforge.pipeline.runner import StageResult, run_stages
from envforge.stages.package.artifact import PackageArtifact

if TYPE_CHECKING:
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

    def as_dict(self) -> dict[str, Any]:
        return {
            "env_id": self.env_id,
            "package": str(self.package),
            "package_hash": self.package_hash,
            "stages": [asdict(stage) for stage in self.stages],
        }

    def table(self) -> Table:
        """A row per stage: stage, status, seconds, content hash (its first 16 digits)."""
        rows = [(stage.stage, stage.status, f"{stage.seconds:.2f}", stage.content_hash[:16]) for stage in self.stages]
        return Table(f"{self.env_id} -> {self.package}", ("stage", "status", "seconds", "content hash"), rows)

    def display(self) -> Display:
        return Display(tables=[self.table()], warnings=self.warnings())

    def warnings(self) -> list[str]:
        """What the package's report warns of: why fewer tasks than asked for were accepted, if so, each WRITE
        action no task makes and each policy on requests no task hinges on, with the reason. (The READ tools no task
        calls are in the report, with why.)"""
        report = self.package / "report.json"
        if not report.is_file():
            return []
        data = json.loads(report.read_text(encoding="utf-8"))
        warnings = [data["shortfall"]] if data.get("shortfall") else []
        unreached = (data.get("mix") or {}).get("unreached") or {}
        warnings += [f"{action}: no task makes it: {reason}" for action, reason in unreached.items()]
        unexercised = (data.get("mix") or {}).get("unexercised") or {}
        warnings += [f"policy {policy}: no task hinges on it: {why}" for policy, why in unexercised.items()]
        return warnings


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
    blueprint = load_run_blueprint(source, config.rows, config.max_rows)
    # The stages load once the blueprint is known good: a bad one is refused in a fraction of a second.
    from envforge.stages.registry import ROOT, pipeline_stages

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

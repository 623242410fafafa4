"""Run the DAG for one blueprint: skip what is cached, build the rest, publish the package atomically."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from envforge import __version__
from envforge.errors import UserInputError, did_you_mean
from envforge.hashing import hash_bytes, hash_json
from envforge.ir.loading import load_blueprint
from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, PackageArtifact
from envforge.pipeline.dag import GenerateConfig, Stage
from envforge.pipeline.registry import ROOT, STAGES
from envforge.pipeline.store import (
    ArtifactRecord,
    clean_leftovers,
    files_hash,
    load_stage,
    read_files,
    save_stage,
    write_dir_atomic,
)

logger = logging.getLogger(__name__)
CACHE_DIR = ".cache"


@dataclass(frozen=True)
class StageResult:
    stage: str
    status: str
    """`built` or `cached`."""
    content_hash: str
    seconds: float


@dataclass
class RunResult:
    env_id: str
    domain: str
    package: Path
    stages: list[StageResult] = field(default_factory=list)

    @property
    def package_hash(self) -> str:
        return self.stages[-1].content_hash


def cache_key(stage: Stage, config: GenerateConfig, input_hashes: list[str]) -> str:
    settings = {name: getattr(config, name) for name in stage.config_fields}
    parts: list[object] = [stage.name, stage.version, __version__, settings, input_hashes]
    if stage.fingerprint is not None:
        parts.append(stage.fingerprint())
    return hash_json(parts)


def _stages_from(name: str | None) -> set[str]:
    """Names of `name` and every stage downstream of it."""
    if name is None:
        return set()
    names = [stage.name for stage in STAGES]
    if name not in names:
        hint = did_you_mean(name, names) or f"; stages: {', '.join(names)}"
        raise UserInputError(f"--from: unknown stage '{name}'{hint}")
    chosen = {name}
    for stage in STAGES:
        if chosen.intersection(stage.inputs):
            chosen.add(stage.name)
    return chosen


def run_pipeline(
    source: Path,
    out_dir: Path,
    config: GenerateConfig,
    *,
    force: bool = False,
    from_stage: str | None = None,
    on_stage: Callable[[StageResult], None] | None = None,
) -> RunResult:
    """Generate the package for `source` into `out_dir/<domain>/`; resumable and idempotent."""
    rebuild = _stages_from(from_stage)
    blueprint = load_blueprint(source)
    run_dir = out_dir / CACHE_DIR / blueprint.domain
    clean_leftovers(run_dir)
    clean_leftovers(out_dir)
    root = BlueprintArtifact(blueprint=blueprint)
    artifacts: dict[str, Artifact] = {ROOT: root}
    hashes = {ROOT: root.content_hash()}
    result = RunResult(env_id=blueprint.env_id, domain=blueprint.domain, package=out_dir / blueprint.domain)
    for stage in STAGES:
        started = time.perf_counter()
        key = cache_key(stage, config, [hashes[name] for name in stage.inputs])
        folder = run_dir / stage.name
        cached = None if force or stage.name in rebuild else load_stage(folder, key)
        if cached is not None:
            record, files = cached
            artifact: Artifact = stage.output.from_files(files)
            status = "cached"
        else:
            built = stage.build({name: artifacts[name] for name in stage.inputs}, config)
            files = built.to_files()
            # Downstream stages always get the stored form, as a resumed run would read it back.
            artifact = stage.output.from_files(files)
            record = ArtifactRecord(
                stage=stage.name,
                stage_version=stage.version,
                cache_key=key,
                content_hash=files_hash(files),
                files={name: hash_bytes(data) for name, data in files.items()},
            )
            save_stage(folder, record, files)
            status = "built"
        artifacts[stage.name] = artifact
        hashes[stage.name] = record.content_hash
        outcome = StageResult(stage.name, status, record.content_hash, time.perf_counter() - started)
        logger.info("stage %s %s in %.2fs", stage.name, status, outcome.seconds)
        result.stages.append(outcome)
        if on_stage is not None:
            on_stage(outcome)
    package = artifacts[STAGES[-1].name]
    if not isinstance(package, PackageArtifact):
        raise TypeError("the last stage must produce the package")
    _publish(result.package, package)
    return result


def _publish(target: Path, package: PackageArtifact) -> None:
    """Swap the package folder in whole, unless it already holds exactly these files."""
    if target.is_dir() and read_files(target) == package.files and not (target / "artifact.json").exists():
        return
    write_dir_atomic(target, package.files)

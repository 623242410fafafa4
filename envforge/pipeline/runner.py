"""Run a DAG of stages: skip what is cached, build the rest, store every output atomically."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from envforge.errors import UserInputError, did_you_mean
from envforge.files import clean_leftovers
from envforge.hashing import hash_bytes, hash_json
from envforge.pipeline.artifacts import Artifact
from envforge.pipeline.dag import AnyStage, GenerateConfig
from envforge.pipeline.progress import step
from envforge.pipeline.store import ArtifactRecord, files_hash, load_stage, save_stage
from envforge.version import __version__

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class StageResult:
    stage: str
    status: str
    """`built` or `cached`."""
    content_hash: str
    seconds: float


def cache_key(stage: AnyStage, config: GenerateConfig, input_hashes: list[str]) -> str:
    settings = {name: _plain(getattr(config, name)) for name in stage.config_fields}
    parts: list[object] = [stage.name, stage.version, __version__, settings, input_hashes]
    if stage.fingerprint is not None:
        parts.append(stage.fingerprint())
    return hash_json(parts)


def _plain(value: object) -> object:
    return value.model_dump(mode="json") if isinstance(value, BaseModel) else value


def stages_from(stages: Sequence[AnyStage], name: str | None) -> set[str]:
    """Names of `name` and every stage downstream of it."""
    if name is None:
        return set()
    names = [stage.name for stage in stages]
    if name not in names:
        hint = did_you_mean(name, names) or f"; stages: {', '.join(names)}"
        raise UserInputError(f"--from: unknown stage '{name}'{hint}")
    chosen = {name}
    for stage in stages:
        if chosen.intersection(stage.input_names):
            chosen.add(stage.name)
    return chosen


def run_stages(
    stages: Sequence[AnyStage],
    roots: Mapping[str, Artifact],
    run_dir: Path,
    config: GenerateConfig,
    *,
    force: bool = False,
    from_stage: str | None = None,
    on_stage: Callable[[StageResult], None] | None = None,
) -> tuple[dict[str, Artifact], list[StageResult]]:
    """Every stage's output (as stored) and how each was made; resumable and idempotent."""
    rebuild = stages_from(stages, from_stage)
    clean_leftovers(run_dir)
    artifacts: dict[str, Artifact] = dict(roots)
    hashes = {name: root.content_hash() for name, root in roots.items()}
    results: list[StageResult] = []
    for stage in stages:
        started = time.perf_counter()
        with step(stage.name) as current:
            key = cache_key(stage, config, [hashes[name] for name in stage.input_names])
            folder = run_dir / stage.name
            cached = None if force or stage.name in rebuild else load_stage(folder, key)
            if cached is not None:
                record, files = cached
                status = current.outcome = "cached"
            else:
                files = stage.run(artifacts, config).to_files()
                record = ArtifactRecord(
                    stage=stage.name,
                    stage_version=stage.version,
                    cache_key=key,
                    content_hash=files_hash(files),
                    files={name: hash_bytes(data) for name, data in files.items()},
                )
                save_stage(folder, record, files)
                status = "built"
            # Downstream stages always get the stored form, as a resumed run would read it back.
            artifacts[stage.name] = stage.output.from_files(files)
        hashes[stage.name] = record.content_hash
        outcome = StageResult(stage.name, status, record.content_hash, time.perf_counter() - started)
        logger.info("stage %s %s in %.2fs", stage.name, status, outcome.seconds)
        results.append(outcome)
        if on_stage is not None:
            on_stage(outcome)
    return artifacts, results

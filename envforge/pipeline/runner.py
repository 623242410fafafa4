"""Run a DAG of stages: skip what is cached, build the rest, store every output atomically.

Where this process may use a second core, a stage declared `aside` (its build mostly waits on processes of its own,
as the tool tests do) is built on a thread while the stages after it go on. A stage that needs its output waits for
it, unless it `reads` of it only what the aside stage's `stand_in` already tells and it would be built anyway
(nothing of it is stored yet, or --force, or --from): then it is built on the stand-in, and once the real output is
in, stored under its true cache key if the real output reads the same to it, or else built again with every stage
built on it. So the outputs, hashes and cache keys are those of a run one stage after another, and so is a failed
run's error: the first failing stage's, in run order.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from contextvars import copy_context
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel

from envforge.errors import UserInputError, did_you_mean
from envforge.executors import second_core, sharing_cores
from envforge.files import clean_leftovers
from envforge.hashing import hash_bytes, hash_json
from envforge.pipeline.artifacts import Artifact
from envforge.pipeline.dag import AnyStage, GenerateConfig
from envforge.pipeline.progress import step
from envforge.pipeline.store import ArtifactRecord, files_hash, has_record, load_stage, save_stage
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
    if force:
        rebuild = {stage.name for stage in stages}
    clean_leftovers(run_dir)
    return _Run(list(stages), roots, run_dir, config, rebuild, on_stage).run_all()


@dataclass
class _Guess:
    """A stage built on the stand-in of the stage aside: stored once the real output gives its cache key."""

    files: dict[str, bytes]
    seconds: float


@dataclass
class _Aside:
    """The stage building on a thread, its stand-in, and what the run built on that meanwhile."""

    stage: AnyStage
    done: Future[tuple[ArtifactRecord, Artifact, float]]
    stand_in: Artifact | None
    sharing: ExitStack
    """Holds the second core for the thread, so that no stage of this one takes it too."""
    on_stand_in: list[str] = field(default_factory=list)
    """Stages the run started on the stand-in, built or failed."""
    guesses: dict[str, _Guess] = field(default_factory=dict)
    """Those built."""
    after: set[str] = field(default_factory=set)
    """Stages built on a guess's output: built again with it if the guess was wrong."""


class _Run:
    def __init__(
        self,
        stages: list[AnyStage],
        roots: Mapping[str, Artifact],
        run_dir: Path,
        config: GenerateConfig,
        rebuild: set[str],
        on_stage: Callable[[StageResult], None] | None,
    ) -> None:
        self.stages = stages
        self.run_dir = run_dir
        self.config = config
        self.rebuild = rebuild
        """Stages built whatever is stored: --force's all, --from's and those downstream of it."""
        self.on_stage = on_stage
        self.artifacts: dict[str, Artifact] = dict(roots)
        self.hashes = {name: root.content_hash() for name, root in roots.items()}
        self.results: dict[str, StageResult] = {}
        self.aside: _Aside | None = None

    def run_all(self) -> tuple[dict[str, Artifact], list[StageResult]]:
        with ThreadPoolExecutor(max_workers=1, thread_name_prefix="envforge-aside") as pool:
            try:
                position = 0
                while position < len(self.stages) or self.aside is not None:
                    stage = self.stages[position] if position < len(self.stages) else None
                    back = self._settle(wait=stage is None or self._waits_for_aside(stage))
                    if back is None and stage is not None:
                        back = self._make_unless_made(stage, position, pool)
                        position += 1
                    position = position if back is None else back
            finally:
                if self.aside is not None:
                    self.aside.sharing.close()
        return self.artifacts, [self.results[stage.name] for stage in self.stages]

    def _make_unless_made(self, stage: AnyStage, position: int, pool: ThreadPoolExecutor) -> int | None:
        """Make `stage` unless it is made; the position to go back to if its failure came of a wrong stand-in."""
        aside = self.aside
        if stage.name in self.results or (aside is not None and (aside.stage is stage or stage.name in aside.guesses)):
            return None
        try:
            self._make(stage, position, pool)
        except Exception:
            if self.aside is None:
                raise
            # Whatever failed here, a run one stage at a time would have met the aside stage's error first, and
            # would have built this stage on the real output, not on the stand-in.
            back = self._settle(wait=True)
            if back is None:
                raise
            return back
        return None

    def _make(self, stage: AnyStage, position: int, pool: ThreadPoolExecutor) -> None:
        started = time.perf_counter()
        stand_in = self._stand_in_for(stage)
        if stand_in is not None:
            self._guess(stage, stand_in, started)
            return
        key = cache_key(stage, self.config, [self.hashes[name] for name in stage.input_names])
        if self._may_go_aside(stage, position) and self._cached(stage, key) is None:
            self._start_aside(stage, key, pool)
            return
        with step(stage.name) as current:
            stored = self._cached(stage, key)
            if stored is not None:
                status = current.outcome = "cached"
            else:
                stored, status = self._build(stage, key, self.artifacts), "built"
            # Downstream stages always get the stored form, as a resumed run would read it back.
            artifact = stage.output.from_files(stored[1])
        self._take(stage, stored[0], artifact, status, time.perf_counter() - started)
        aside = self.aside
        if aside is not None and {*aside.guesses, *aside.after}.intersection(stage.input_names):
            aside.after.add(stage.name)

    def _cached(self, stage: AnyStage, key: str) -> tuple[ArtifactRecord, dict[str, bytes]] | None:
        return None if stage.name in self.rebuild else load_stage(self.run_dir / stage.name, key)

    def _build(
        self, stage: AnyStage, key: str, artifacts: Mapping[str, Artifact]
    ) -> tuple[ArtifactRecord, dict[str, bytes]]:
        files = stage.run(artifacts, self.config).to_files()
        return self._store(stage, key, files), files

    def _store(self, stage: AnyStage, key: str, files: dict[str, bytes]) -> ArtifactRecord:
        record = ArtifactRecord(
            stage=stage.name,
            stage_version=stage.version,
            cache_key=key,
            content_hash=files_hash(files),
            files={name: hash_bytes(data) for name, data in files.items()},
        )
        save_stage(self.run_dir / stage.name, record, files)
        return record

    def _take(self, stage: AnyStage, record: ArtifactRecord, artifact: Artifact, status: str, seconds: float) -> None:
        self.artifacts[stage.name] = artifact
        self.hashes[stage.name] = record.content_hash
        outcome = StageResult(stage.name, status, record.content_hash, seconds)
        logger.info("stage %s %s in %.2fs", stage.name, status, outcome.seconds)
        self.results[stage.name] = outcome
        if self.on_stage is not None:
            self.on_stage(outcome)

    def _built_anyway(self, stage: AnyStage) -> bool:
        """Whether `stage` is built whatever its inputs hash to: nothing of it is stored, or it is to be rebuilt."""
        return stage.name in self.rebuild or not has_record(self.run_dir / stage.name)

    def _on_stand_in(self, made: AnyStage, stage: AnyStage) -> bool:
        """Whether `stage` may be built on the stand-in of `made`, which it takes as an input."""
        return made.stand_in is not None and made.name in stage.reads and self._built_anyway(stage)

    def _stand_in_for(self, stage: AnyStage) -> Artifact | None:
        """The stand-in to build `stage` on: the aside stage's, where `stage` needs it and may take it."""
        aside = self.aside
        if aside is None or aside.stage.name not in stage.input_names or not self._on_stand_in(aside.stage, stage):
            return None
        return aside.stand_in

    def _waits_for_aside(self, stage: AnyStage) -> bool:
        aside = self.aside
        return aside is not None and aside.stage.name in stage.input_names and self._stand_in_for(stage) is None

    def _may_go_aside(self, stage: AnyStage, position: int) -> bool:
        """An `aside` stage goes on a thread where a second core is free for this run and the next stage can
        start without its output. Unlike a second process, which pays its start, the thread costs no extra CPU,
        so the load of the machine does not matter."""
        if not stage.aside or self.aside is not None or position + 1 == len(self.stages) or not second_core():
            return False
        following = self.stages[position + 1]
        return stage.name not in following.input_names or self._on_stand_in(stage, following)

    def _start_aside(self, stage: AnyStage, key: str, pool: ThreadPoolExecutor) -> None:
        inputs = {name: self.artifacts[name] for name in stage.input_names}
        stand_in = stage.stand_in(stage.inputs(**inputs)) if stage.stand_in is not None else None
        with sharing_cores():
            context = copy_context()
        started = threading.Event()
        done = pool.submit(context.run, self._build_aside, stage, key, inputs, started)
        sharing = ExitStack()
        sharing.enter_context(sharing_cores())
        self.aside = _Aside(stage, done, stand_in, sharing)
        started.wait()  # so that its first progress line comes before the next stage's

    def _build_aside(
        self, stage: AnyStage, key: str, inputs: dict[str, Artifact], started: threading.Event
    ) -> tuple[ArtifactRecord, Artifact, float]:
        began = time.perf_counter()
        try:
            with step(stage.name):
                started.set()
                record, files = self._build(stage, key, inputs)
                artifact = stage.output.from_files(files)
        finally:
            started.set()
        return record, artifact, time.perf_counter() - began

    def _guess(self, stage: AnyStage, stand_in: Artifact, started: float) -> None:
        aside = self.aside
        if aside is None:
            raise RuntimeError("a stage is built on a stand-in only while a stage runs aside")
        aside.on_stand_in.append(stage.name)
        with step(stage.name):
            files = stage.run({**self.artifacts, aside.stage.name: stand_in}, self.config).to_files()
            self.artifacts[stage.name] = stage.output.from_files(files)
        self.hashes[stage.name] = files_hash(files)
        aside.guesses[stage.name] = _Guess(files, time.perf_counter() - started)

    def _settle(self, *, wait: bool) -> int | None:
        """Take in the aside stage's output if it is done (with `wait`, once it is): then store each stage built on
        its stand-in, or, if one reads the real output otherwise, return the position to build them again from."""
        aside = self.aside
        if aside is None or not (wait or aside.done.done()):
            return None
        self.aside = None
        aside.sharing.close()
        record, artifact, seconds = aside.done.result()
        self._take(aside.stage, record, artifact, "built", seconds)
        stages = {stage.name: stage for stage in self.stages}
        if any(not _reads_alike(stages[name], aside, artifact) for name in aside.on_stand_in):
            again = {*aside.on_stand_in, *aside.after}
            for name in again:
                self.results.pop(name, None)
                self.artifacts.pop(name, None)
                self.hashes.pop(name, None)
            return min(index for index, stage in enumerate(self.stages) if stage.name in again)
        for name, guess in aside.guesses.items():
            stage = stages[name]
            key = cache_key(stage, self.config, [self.hashes[needed] for needed in stage.input_names])
            self._take(stage, self._store(stage, key, guess.files), self.artifacts[name], "built", guess.seconds)
        return None


def _reads_alike(stage: AnyStage, aside: _Aside, artifact: Artifact) -> bool:
    """Whether `stage` reads the aside stage's real output as it read its stand-in."""
    read = stage.reads[aside.stage.name]
    return read(artifact) == read(aside.stand_in)

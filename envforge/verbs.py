"""The library's verbs: what the commands of the same names do, as typed functions over plain values.

Each takes paths and options, calls the package that does the work, and returns its typed outcome; none
prints. Those that take long report through the callbacks they are handed (`on_stage`, `progress`), which is
how the command line draws its bars. Bad input raises a `UserInputError` naming what to fix.

Each verb imports what it calls when it runs, so `import envforge` stays cheap and a verb loads only its own.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from envforge.ir.row_budget import DEFAULT_MAX_ROWS
from envforge.pipeline.dag import DEFAULT_ROWS, DEFAULT_TASKS
from envforge.rollouts.options import RolloutOptions

if TYPE_CHECKING:
    from envforge.executors import ExecutorKind, Progress
    from envforge.exporters.run import ExportReport
    from envforge.pipeline.runner import StageResult
    from envforge.rollouts.run import RolloutReport
    from envforge.rollouts.trajectory import Trajectory
    from envforge.stages.generate import RunResult
    from envforge.suite.report import BatchOutcome, SuiteReport
    from envforge.validators.results import CheckReport
    from envforge.viewer.site import ViewReport

__all__ = ["RolloutOptions", "batch", "check", "export", "fuse", "generate", "rollout", "validate", "view"]


def generate(
    blueprint: str | Path,
    out: str | Path = "generated",
    *,
    seed: int = 0,
    rows: int = DEFAULT_ROWS,
    tasks: int = DEFAULT_TASKS,
    max_rows: int = DEFAULT_MAX_ROWS,
    force: bool = False,
    from_stage: str | None = None,
    on_stage: Callable[[StageResult], None] | None = None,
) -> RunResult:
    """One package from a blueprint file or a shipped blueprint's name (`"retail"`) into `out/<domain>/`.

    Resumable: the stages cached under `out/.cache/` are not built again, unless `force` (every stage) or
    `from_stage` (that stage and those after it) says so. A run that would seed more than `max_rows` rows (`rows`
    shared out by the entities' weights, plus the catalogues') is refused before anything is written.
    """
    from envforge.pipeline.dag import GenerateConfig
    from envforge.stages.generate import run_pipeline
    from envforge.suite.blueprints import resolve_blueprint

    config = GenerateConfig(seed=seed, rows=rows, tasks=tasks, max_rows=max_rows)
    path = resolve_blueprint(str(blueprint))
    return run_pipeline(path, Path(out), config, force=force, from_stage=from_stage, on_stage=on_stage)


def batch(
    blueprints: Sequence[str | Path],
    out: str | Path = "generated",
    *,
    seed: int = 0,
    rows: int = DEFAULT_ROWS,
    tasks: int = DEFAULT_TASKS,
    max_rows: int = DEFAULT_MAX_ROWS,
    workers: int = 2,
    executor: ExecutorKind = "local",
    address: str | None = None,
    progress: Progress[BatchOutcome] | None = None,
) -> SuiteReport:
    """Many packages, from blueprint files, shipped names, folders of blueprints and list files (`@suite.txt`),
    in a pool of `workers` processes or (`executor="ray"`) as Ray tasks on the cluster at `address` (None starts
    Ray here). A failing blueprint never stops the others: it is a row of the report, which is also saved as
    `out/suite.json`. Rerunning resumes from the stage cache.
    """
    from envforge.suite.run import batch_suite
    from envforge.suite.settings import BatchSettings

    settings = BatchSettings(seed, rows, tasks, workers, executor, address, max_rows)
    return batch_suite([str(blueprint) for blueprint in blueprints], Path(out), settings, progress)


def fuse(
    blueprints: Sequence[str | Path],
    out: str | Path = "generated",
    *,
    domain: str | None = None,
    identity: str | None = None,
    prefixes: Sequence[str] = (),
    save: str | Path | None = None,
    seed: int = 0,
    rows: int = DEFAULT_ROWS,
    tasks: int = DEFAULT_TASKS,
    max_rows: int = DEFAULT_MAX_ROWS,
    force: bool = False,
    on_stage: Callable[[StageResult], None] | None = None,
) -> RunResult:
    """One package of 2-3 domains, the same person in each: their `compose:` blueprint (saved to `save` too,
    to add bridges to), generated into `out/<domain>/`. `identity` is the person field that links them (default:
    one they share, email first); a prefix is `DOMAIN=PREFIX` (default: the domain id).
    """
    from envforge.errors import UserInputError
    from envforge.files import write_file_atomic
    from envforge.pipeline.dag import GenerateConfig
    from envforge.stages.generate import run_pipeline
    from envforge.suite.blueprints import resolve_blueprint
    from envforge.suite.fusion import composition_data, composition_yaml

    paths = [resolve_blueprint(str(blueprint)) for blueprint in blueprints]
    if save is not None and Path(save).exists() and not force:
        raise UserInputError(f"--save {save}: the file exists; pass --force to overwrite it, or choose another path")
    with tempfile.TemporaryDirectory(prefix="envforge-fuse-") as scratch:
        target = Path(save) if save is not None else Path(scratch) / "fused.yaml"
        data = composition_data(paths, domain=domain, identity=identity, prefixes=list(prefixes), folder=target.parent)
        write_file_atomic(target, composition_yaml(data))
        config = GenerateConfig(seed=seed, rows=rows, tasks=tasks, max_rows=max_rows)
        return run_pipeline(target, Path(out), config, force=force, on_stage=on_stage)


def check(package: str | Path, *, sample: int | None = None, junit: str | Path | None = None) -> CheckReport:
    """The conformance suite on a package: file integrity, tool tests, every verifier through the gate, oracle
    and reset determinism, an MCP round trip, the apps. `sample` gates and replays only that many tasks (an even
    spread); `junit` also writes the results there as JUnit XML."""
    from envforge.files import write_file_atomic
    from envforge.validators.checks import run_checks
    from envforge.validators.junit import render_junit
    from envforge.validators.loaded_package import open_for_check, read_env_id
    from envforge.validators.results import CheckReport

    opened = open_for_check(Path(package))
    report = CheckReport(read_env_id(opened), run_checks(opened, sample=sample))
    if junit is not None:
        write_file_atomic(Path(junit), render_junit(report))
    return report


def rollout(
    package: str | Path, options: RolloutOptions, *, progress: Progress[Trajectory] | None = None
) -> RolloutReport:
    """A served model on a package's tasks, `options.k` episodes each, every episode saved as a trajectory
    (`options.out`, default runs/rollouts/<domain>-<model>.jsonl). Works inside a running event loop too."""
    from envforge.rollouts.run import RolloutReport, rollout_and_save
    from envforge.rollouts.solvability import summarize_rollouts

    trajectories, path = rollout_and_save(Path(package), options, progress)
    k = max((trajectory.sample for trajectory in trajectories), default=0) + 1
    return RolloutReport(trajectories, path, summarize_rollouts(trajectories, k))


def validate(
    package: str | Path,
    options: RolloutOptions,
    *,
    keep_pass_rate: tuple[float, float] = (0.0, 1.0),
    progress: Progress[Trajectory] | None = None,
) -> RolloutReport:
    """`rollout`, then the tasks' solvability (pass@k, pass^k, training pools by `keep_pass_rate`, failure
    classes) written into the package's report."""
    from envforge.rollouts.run import RolloutReport, rollout_and_save
    from envforge.rollouts.solvability import summarize_rollouts, write_rollout_report

    trajectories, path = rollout_and_save(Path(package), options, progress)
    summary = summarize_rollouts(trajectories, options.k, keep_pass_rate)
    write_rollout_report(Path(package), summary)
    return RolloutReport(trajectories, path, summary)


def export(
    packages: Sequence[str | Path],
    out: str | Path = "exports",
    formats: Sequence[str] = ("all",),
    *,
    test_fraction: float = 0.1,
    rollouts: Sequence[str | Path] | None = None,
) -> ExportReport:
    """Packages (or folders of them) as installable Gymnasium wheels, verl, TRL and SFT datasets and MCP config,
    each output folder written whole; `formats` as `--format` takes them. `rollouts` are trajectory files whose
    passing episodes join the SFT data."""
    from envforge.exporters.run import export, parse_formats

    chosen = parse_formats(list(formats))
    files = [Path(path) for path in rollouts] if rollouts is not None else None
    return export([Path(path) for path in packages], Path(out), chosen, test_fraction=test_fraction, rollouts=files)


def view(path: str | Path, out: str | Path | None = None) -> ViewReport:
    """A static HTML site over a package, a rollout run (a trajectories file, or a folder of them) or a suite
    (a folder with `suite.json`), written whole into `out` (default: `<path>-view` beside it)."""
    from envforge.viewer.site import write_view

    return write_view(Path(path), Path(out) if out is not None else None)

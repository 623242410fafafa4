"""The pipeline: deterministic, cached, resumable after kill -9, atomic."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from envforge.errors import UserInputError
from envforge.files import read_files
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, StageInputs, build_dag
from envforge.stages.generate import RunResult, run_pipeline
from envforge.stages.ontology.artifact import OntologyArtifact
from envforge.stages.registry import STAGES
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import REQUIRED_FILES, check_package_integrity
from tests.conftest import REPO

RETAIL = REPO / "blueprints" / "retail.yaml"
PACKAGE_FILES = {name.split("/")[0] for name in REQUIRED_FILES} | {"verifiers"}
TASKS = 12


def test_generating_twice_gives_byte_identical_packages(tmp_path: Path) -> None:
    first = run_pipeline(RETAIL, tmp_path / "a", GenerateConfig(rows=300, seed=7, tasks=TASKS))
    second = run_pipeline(RETAIL, tmp_path / "b", GenerateConfig(rows=300, seed=7, tasks=TASKS))
    files = read_files(first.package)
    assert {name.split("/")[0] for name in files} == PACKAGE_FILES
    assert files == read_files(second.package)
    assert first.package_hash == second.package_hash


def test_a_different_seed_gives_different_state_but_the_same_tools(tmp_path: Path) -> None:
    first = read_files(run_pipeline(RETAIL, tmp_path / "a", GenerateConfig(rows=300, seed=1, tasks=TASKS)).package)
    second = read_files(run_pipeline(RETAIL, tmp_path / "b", GenerateConfig(rows=300, seed=2, tasks=TASKS)).package)
    assert first["state.sqlite"] != second["state.sqlite"]
    assert first["toolgraph.json"] == second["toolgraph.json"]


def test_a_rerun_skips_every_stage_and_keeps_the_package(tmp_path: Path) -> None:
    first = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS))
    assert [stage.status for stage in first.stages] == ["built"] * len(STAGES)
    second = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS))
    assert [stage.status for stage in second.stages] == ["cached"] * len(STAGES)
    assert second.package_hash == first.package_hash


def test_changing_rows_rebuilds_only_the_stages_that_depend_on_it(tmp_path: Path) -> None:
    run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS))
    rerun = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=500, tasks=TASKS))
    assert {stage.stage: stage.status for stage in rerun.stages} == {
        "ontology": "cached",
        "toolgraph": "cached",
        "state": "built",
        "tooltests": "built",
        "tasks": "built",
        "verifiers": "built",
        "review": "built",
        "apps": "cached",
        "uitasks": "built",
        "package": "built",
    }


def test_force_rebuilds_everything_and_from_rebuilds_downstream_only(tmp_path: Path) -> None:
    first = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS))
    forced = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS), force=True)
    assert [stage.status for stage in forced.stages] == ["built"] * len(STAGES)
    partial = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS), from_stage="toolgraph")
    assert {stage.stage: stage.status for stage in partial.stages} == {
        "ontology": "cached",
        "toolgraph": "built",
        "state": "cached",
        "tooltests": "built",
        "tasks": "built",
        "verifiers": "built",
        "review": "built",
        "apps": "built",
        "uitasks": "built",
        "package": "built",
    }
    assert forced.package_hash == partial.package_hash == first.package_hash


def test_an_unknown_from_stage_is_a_user_error_with_a_suggestion(tmp_path: Path) -> None:
    with pytest.raises(UserInputError, match="did you mean 'state'"):
        run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS), from_stage="stat")
    assert not (tmp_path / "retail").exists()


def test_a_corrupted_cached_artifact_is_rebuilt_not_trusted(tmp_path: Path) -> None:
    first = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS))
    state_file = tmp_path / ".cache" / "retail" / "state" / "state.sqlite"
    state_file.write_bytes(b"garbage")
    rerun = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS))
    assert {stage.stage: stage.status for stage in rerun.stages}["state"] == "built"
    assert rerun.package_hash == first.package_hash


def test_the_package_holds_the_files_of_the_format_and_passes_integrity(tmp_path: Path) -> None:
    run = run_pipeline(RETAIL, tmp_path, GenerateConfig(rows=300, tasks=TASKS))
    assert {path.name for path in run.package.iterdir()} == PACKAGE_FILES
    assert check_package_integrity(open_for_check(run.package)) == []
    (run.package / "policy.md").write_text("tampered")
    assert [problem.file for problem in check_package_integrity(open_for_check(run.package))] == ["policy.md"]


class _FromA(StageInputs):
    a: OntologyArtifact


class _FromB(StageInputs):
    b: OntologyArtifact


class _FromNowhere(StageInputs):
    nowhere: OntologyArtifact


class _FromBlueprint(StageInputs):
    blueprint: OntologyArtifact


def _never(inputs: StageInputs, config: GenerateConfig) -> OntologyArtifact:
    raise NotImplementedError


def test_the_dag_rejects_cycles_unknown_inputs_and_inputs_of_the_wrong_type() -> None:
    from envforge.errors import PipelineError

    a = Stage(name="a", version=1, inputs=_FromB, output=OntologyArtifact, build=_never)
    b = Stage(name="b", version=1, inputs=_FromA, output=OntologyArtifact, build=_never)
    with pytest.raises(PipelineError, match="cycle"):
        build_dag([a, b], roots={})
    lonely = Stage(name="c", version=1, inputs=_FromNowhere, output=OntologyArtifact, build=_never)
    with pytest.raises(PipelineError, match="unknown stage 'nowhere'"):
        build_dag([lonely], roots={})
    mistyped = Stage(name="d", version=1, inputs=_FromBlueprint, output=OntologyArtifact, build=_never)
    with pytest.raises(
        PipelineError, match="takes input 'blueprint' as OntologyArtifact, but 'blueprint' makes Bluepr"
    ):
        build_dag([mistyped], roots={"blueprint": BlueprintArtifact})


def test_every_stage_of_the_dag_names_its_inputs_once_as_typed_fields() -> None:
    made = {"blueprint": BlueprintArtifact, **{stage.name: stage.output for stage in STAGES}}
    for stage in STAGES:
        assert issubclass(stage.inputs, StageInputs)
        assert {name: field.annotation for name, field in stage.inputs.model_fields.items()} == {
            name: made[name] for name in stage.input_names
        }


def _kill_after(stage_line: str, out: Path, rows: int) -> None:
    """Start `envforge generate` and SIGKILL it as soon as it logs `stage_line` (no sleeps)."""
    command = [
        sys.executable,
        "-m",
        "envforge.cli.app",
        "-v",
        "generate",
        str(RETAIL),
        "-o",
        str(out),
        "--rows",
        str(rows),
        "--json",
    ]
    process = subprocess.Popen(command, cwd=REPO, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if stage_line in line:
            os.kill(process.pid, signal.SIGKILL)
            break
    process.wait(timeout=120)


KILLED_ROWS = 5_000


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    """The run each killed one must resume to, generated once for the module: the tests only read it."""
    return run_pipeline(RETAIL, tmp_path_factory.mktemp("uninterrupted"), GenerateConfig(rows=KILLED_ROWS, tasks=TASKS))


@pytest.mark.parametrize("stage_line", ["stage ontology built", "stage state built", "stage tasks built"])
def test_a_run_killed_with_sigkill_resumes_and_ends_with_the_same_hashes(
    uninterrupted: RunResult, tmp_path: Path, stage_line: str
) -> None:
    rows = KILLED_ROWS
    reference = uninterrupted
    out = tmp_path / "killed"
    _kill_after(stage_line, out, rows)
    package = out / "retail"
    # Whatever the kill interrupted, there is no package or a complete one: never a partial one.
    assert not package.exists() or check_package_integrity(open_for_check(package)) == []
    resumed = run_pipeline(RETAIL, out, GenerateConfig(rows=rows, tasks=TASKS))
    statuses = {stage.stage: stage.status for stage in resumed.stages}
    assert statuses["ontology"] == "cached"
    assert [stage.content_hash for stage in resumed.stages] == [stage.content_hash for stage in reference.stages]
    assert read_files(resumed.package) == read_files(reference.package)
    assert not [entry for entry in out.rglob(".tmp-*")]

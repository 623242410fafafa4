"""A stage built aside, on a thread beside the stages after it, changes nothing a run stores, returns or raises."""

from __future__ import annotations

import os
import threading
from pathlib import Path
from typing import Self

import pytest

from envforge.errors import PipelineError
from envforge.files import read_files
from envforge.pipeline.artifacts import Artifact
from envforge.pipeline.dag import AnyStage, GenerateConfig, StageInputs, build_dag, declare_stage
from envforge.pipeline.runner import StageResult, run_stages
from envforge.stages.generate import run_pipeline
from tests.conftest import REPO

WAIT_S = 60
"""How long the aside stage waits for the stage after it to start: only reached if the two never overlap."""


class Number(Artifact):
    value: int

    def to_files(self) -> dict[str, bytes]:
        return {"value": str(self.value).encode()}

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(value=int(files["value"]))


class FromSeed(StageInputs):
    seed: Number


class FromSlow(StageInputs):
    slow: Number


class FromGuess(StageInputs):
    guess: Number


class FromSlowAndAfter(StageInputs):
    slow: Number
    after: Number


def positive(number: Number) -> bool:
    return number.value > 0


def one(inputs: FromSeed) -> Number:
    return Number(value=1)


class Toy:
    """A DAG: `slow` (aside, stand-in 1) -> `guess` (reads only whether `slow` is positive) -> `after` -> `last`
    (which needs all of `slow`)."""

    def __init__(
        self, *, overlapping: bool = False, slow_fails: bool = False, guess_fails_on_positive: bool = False
    ) -> None:
        self.guess_started = threading.Event()
        self.overlapping = overlapping
        self.slow_fails = slow_fails
        self.guess_fails_on_positive = guess_fails_on_positive
        self.guessed: list[bool] = []

    def slow(self, inputs: FromSeed, config: GenerateConfig) -> Number:
        if self.overlapping and not self.guess_started.wait(WAIT_S):
            raise PipelineError("the stage after the aside one never started while it ran")
        if self.slow_fails:
            raise PipelineError("slow: broken")
        return Number(value=inputs.seed.value * 2)

    def guess(self, inputs: FromSlow, config: GenerateConfig) -> Number:
        self.guess_started.set()
        self.guessed.append(positive(inputs.slow))
        if self.guess_fails_on_positive and positive(inputs.slow):
            raise PipelineError("guess: built on a positive number")
        return Number(value=1 if positive(inputs.slow) else -1)

    def stages(self) -> list[AnyStage]:
        return build_dag(
            [
                declare_stage("slow", 1, self.slow, aside=True, stand_in=one),
                declare_stage("guess", 1, self.guess, reads={"slow": positive}),
                declare_stage("after", 1, after),
                declare_stage("last", 1, last),
            ],
            roots={"seed": Number},
        )


def after(inputs: FromGuess, config: GenerateConfig) -> Number:
    return Number(value=inputs.guess.value + 10)


def last(inputs: FromSlowAndAfter, config: GenerateConfig) -> Number:
    return Number(value=inputs.slow.value * 100 + inputs.after.value)


def cores(monkeypatch: pytest.MonkeyPatch, count: int) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: set(range(count)), raising=False)


def run_toy(toy: Toy, seed: int, folder: Path) -> tuple[dict[str, int], list[StageResult]]:
    artifacts, results = run_stages(toy.stages(), {"seed": Number(value=seed)}, folder, GenerateConfig())
    return {name: artifact.value for name, artifact in artifacts.items() if isinstance(artifact, Number)}, results


def without_seconds(results: list[StageResult]) -> list[tuple[str, str, str]]:
    return [(result.stage, result.status, result.content_hash) for result in results]


@pytest.mark.parametrize("seed", [5, -5], ids=["stand-in right", "stand-in wrong"])
def test_a_run_with_a_stage_aside_stores_and_returns_what_a_run_on_one_core_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int
) -> None:
    cores(monkeypatch, 1)
    one_core = Toy()
    values, results = run_toy(one_core, seed, tmp_path / "one")
    assert one_core.guessed == [seed > 0]

    cores(monkeypatch, 2)
    two_cores = Toy(overlapping=True)
    aside_values, aside_results = run_toy(two_cores, seed, tmp_path / "two")
    # The guess stage started on the stand-in (positive) while the slow stage ran, and again on a wrong one.
    assert two_cores.guessed == ([True] if seed > 0 else [True, False])
    guess = 1 if seed > 0 else -1
    expected = {"seed": seed, "slow": 2 * seed, "guess": guess, "after": guess + 10, "last": 200 * seed + guess + 10}
    assert aside_values == values == expected
    assert without_seconds(aside_results) == without_seconds(results)
    assert [result.status for result in results] == ["built"] * 4
    assert read_files(tmp_path / "two") == read_files(tmp_path / "one")

    rerun_values, rerun_results = run_toy(Toy(), seed, tmp_path / "two")
    assert rerun_values == values
    assert [result.status for result in rerun_results] == ["cached"] * 4


def test_the_aside_stage_error_is_the_one_raised_as_on_one_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cores(monkeypatch, 2)
    with pytest.raises(PipelineError, match="slow: broken"):
        run_toy(Toy(overlapping=True, slow_fails=True), 5, tmp_path)
    assert not (tmp_path / "guess").exists() and not (tmp_path / "last").exists()


def test_a_stage_failing_only_on_a_wrong_stand_in_is_built_again_on_the_real_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cores(monkeypatch, 2)
    toy = Toy(overlapping=True, guess_fails_on_positive=True)
    values, _ = run_toy(toy, -5, tmp_path)
    assert toy.guessed == [True, False]
    assert values["guess"] == -1
    with pytest.raises(PipelineError, match="guess: built on a positive number"):
        run_toy(Toy(overlapping=True, guess_fails_on_positive=True), 5, tmp_path / "positive")


def test_a_stage_whose_output_is_stored_waits_for_the_aside_stage_as_on_one_core(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cores(monkeypatch, 2)
    run_toy(Toy(), 5, tmp_path)
    (tmp_path / "slow" / "value").write_text("garbage")
    toy = Toy()
    values, results = run_toy(toy, 5, tmp_path)
    assert values["last"] == 1011
    # `guess` has an output stored, which may still be the one for the real `slow`: it is not built on a stand-in.
    assert toy.guessed == []
    assert {result.stage: result.status for result in results} == {
        "slow": "built",
        "guess": "cached",
        "after": "cached",
        "last": "cached",
    }


def test_generating_on_one_core_and_on_two_stores_the_same_stages_and_package(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config = GenerateConfig(rows=300, tasks=12)
    blueprint = REPO / "blueprints" / "retail.yaml"
    cores(monkeypatch, 1)
    one = run_pipeline(blueprint, tmp_path / "one", config)
    cores(monkeypatch, 2)
    two = run_pipeline(blueprint, tmp_path / "two", config)
    assert [(stage.stage, stage.content_hash) for stage in two.stages] == [
        (stage.stage, stage.content_hash) for stage in one.stages
    ]
    assert read_files(tmp_path / "two") == read_files(tmp_path / "one")

"""`envforge batch --executor ray`: the same outcomes and the same bytes as the local pool, and plain errors.

The Ray tests start a real local Ray (several seconds on two cores) and generate packages twice, so they are
`slow`: CI runs them in its slow tier.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from envforge.executors import ExecutorKind, run_ray
from envforge.suite.report import BatchOutcome
from envforge.suite.run import run_batch
from envforge.suite.settings import BatchSettings
from tests.cli.test_bad_input import run_main
from tests.conftest import REPO

BLUEPRINTS = [REPO / "blueprints" / "library.yaml", REPO / "blueprints" / "clinic.yaml"]


def small_batch(out: Path, executor: ExecutorKind) -> list[BatchOutcome]:
    return run_batch(BLUEPRINTS, out, BatchSettings(seed=0, rows=60, tasks=4, workers=2, executor=executor))


def package_files(package: Path) -> dict[str, bytes]:
    return {str(path.relative_to(package)): path.read_bytes() for path in sorted(package.rglob("*")) if path.is_file()}


@pytest.fixture
def local_outcomes(tmp_path: Path) -> list[BatchOutcome]:
    return small_batch(tmp_path / "local", "local")


@pytest.fixture
def ray_started(local_outcomes: list[BatchOutcome], ray_temp_dir: Path) -> Iterator[None]:
    """A local Ray with every core, started after the local pool so the pool never forks a Ray driver."""
    import ray

    ray.init(num_cpus=os.cpu_count() or 1, include_dashboard=False, _temp_dir=str(ray_temp_dir))
    yield
    ray.shutdown()


@pytest.mark.slow
def test_a_ray_started_for_the_batch_runs_each_call_as_a_task_and_is_shut_down_after(
    ray_temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import ray

    monkeypatch.setenv("RAY_TMPDIR", str(ray_temp_dir))
    finished = dict(run_ray(json.loads, [("7",), ("seven",), ("[1, 2]",)], address=None))
    assert sorted(finished) == [0, 1, 2]
    assert finished[0] == 7
    assert finished[2] == [1, 2]
    assert isinstance(finished[1], json.JSONDecodeError)
    assert "Expecting value: line 1 column 1 (char 0)" in str(finished[1])
    assert not ray.is_initialized()


@pytest.mark.slow
def test_batch_on_ray_writes_the_same_packages_as_the_local_pool(
    local_outcomes: list[BatchOutcome], ray_started: None, tmp_path: Path
) -> None:
    import ray

    ray_outcomes = small_batch(tmp_path / "ray", "ray")
    assert ray.is_initialized(), "a Ray the caller started is left running"
    assert [(o.blueprint, o.ok, o.env_id, o.error) for o in ray_outcomes] == [
        (str(BLUEPRINTS[0]), True, "envforge/library-v0", ""),
        (str(BLUEPRINTS[1]), True, "envforge/clinic-v0", ""),
    ]
    assert [o.package_hash for o in ray_outcomes] == [o.package_hash for o in local_outcomes]
    assert all(len(o.package_hash) == 64 for o in ray_outcomes)
    for local, remote in zip(local_outcomes, ray_outcomes, strict=True):
        assert Path(remote.package).parent == tmp_path / "ray"
        assert package_files(Path(remote.package)) == package_files(Path(local.package))


def test_batch_on_ray_without_ray_installed_names_the_extra_and_exits_2(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    code, message = run_main(capsys, "batch", "library", "-o", str(tmp_path / "out"), "--executor", "ray")
    assert code == 2
    assert message == "--executor ray needs Ray, which is not installed: pip install 'envforge[ray]'"
    assert not (tmp_path / "out").exists()


def test_batch_address_without_the_ray_executor_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, message = run_main(capsys, "batch", "library", "-o", str(tmp_path / "out"), "--address", "auto")
    assert code == 2
    assert message.startswith("Invalid value for --address: --address is the Ray cluster to use; add --executor ray")
    assert not (tmp_path / "out").exists()


def test_batch_on_ray_at_a_malformed_address_says_which_addresses_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, message = run_main(
        capsys, "batch", "library", "-o", str(tmp_path / "out"), "--executor", "ray", "--address", "no address"
    )
    assert code == 2
    assert message == (
        "--address no address: Invalid address format: no address; give the address `ray start --head` printed "
        "(HOST:6379), or `auto` on a node of a running cluster"
    )
    assert not (tmp_path / "out").exists()

"""`envforge bench` on any valid package: writes that succeed a few times (a counter they use up) or once (a
status they move on) are timed from the initial state, and every shipped domain benches without an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from envforge.bench.baselines import bench_write
from envforge.bench.calls import Probe, capture_statements, try_tool
from envforge.bench.long_run import SLOWER_AT_MOST, bench_long_run
from envforge.bench.runtime import bench_state, run_bench
from envforge.bench.tasks import bench_verify
from envforge.ir.toolspec import ToolArguments
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.stages.generate import run_pipeline
from tests.conftest import BLUEPRINTS, envforge_cli, slow_domains

VET_CLINIC = Path(__file__).with_name("vet_clinic.yaml")
DOMAINS = [path.stem for path in BLUEPRINTS]
REPEAT = 10
"""More samples than any seeded counter of the vet domain allows calls, so a repeated call would be refused."""
WARMUP = 2


@pytest.fixture(scope="module")
def vet_package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("vet")
    return run_pipeline(VET_CLINIC, out, GenerateConfig(rows=80, tasks=10)).package


@pytest.fixture(scope="module")
def vet_env(vet_package: Path) -> Environment:
    return load_environment(open_package(vet_package))


def _bench_every_write(env: Environment, package: Path, probes: list[Probe], tmp_path: Path) -> None:
    for probe in probes:
        row = bench_write(
            env,
            capture_statements(env, probe),
            package / "state.sqlite",
            tmp_path / f"{probe.tool}.sqlite",
            repeat=REPEAT,
            warmup=WARMUP,
        )
        assert row.samples == REPEAT and row.baseline_samples == REPEAT, probe.tool
        assert row.median > 0 and row.baseline_median > 0, probe.tool
        assert "each sample from the initial state" in row.note


def _write_probes(env: Environment) -> list[Probe]:
    probes = (try_tool(env, tool) for tool in env.toolgraph.tools if tool.kind == "write")
    return [probe for probe in probes if probe is not None]


def _refused_after(env: Environment, tool: str, arguments: ToolArguments, calls: int) -> bool:
    session = Session(env)
    try:
        outcomes = [session.call_tool(tool, arguments)[0] for _ in range(calls)]
    finally:
        session.close()
    return outcomes[0] and not outcomes[-1]


def test_a_refill_is_timed_on_prescriptions_with_one_two_and_three_refills_left(
    vet_env: Environment, vet_package: Path, tmp_path: Path
) -> None:
    session = Session(vet_env)
    try:
        rows = session.rows("prescription")
    finally:
        session.close()
    chosen = {row["refills_left"]: row["prescription_id"] for row in rows}
    assert sorted(chosen) == [1, 2, 3]
    probes = [Probe("refill_prescription", {"prescription_id": key}, "ok", changes=True) for key in chosen.values()]
    for left, probe in zip(chosen, probes, strict=True):
        assert _refused_after(vet_env, probe.tool, probe.arguments, left + 1)
    _bench_every_write(vet_env, vet_package, probes, tmp_path)


def test_a_one_shot_cancellation_is_timed_from_the_initial_state(
    vet_env: Environment, vet_package: Path, tmp_path: Path
) -> None:
    probe = next(probe for probe in _write_probes(vet_env) if probe.tool == "cancel_visit")
    assert probe.ok and probe.changes
    assert _refused_after(vet_env, probe.tool, probe.arguments, 2)
    _bench_every_write(vet_env, vet_package, [probe], tmp_path)


def test_a_one_shot_cancellation_is_timed_late_in_a_long_episode_and_in_a_fresh_one(vet_env: Environment) -> None:
    probe = next(probe for probe in _write_probes(vet_env) if probe.tool == "cancel_visit")
    read = try_tool(vet_env, next(tool for tool in vet_env.toolgraph.tools if tool.operation == "get"))
    assert read is not None and read.ok
    # Each sample is undone back to where its episode stood: a second cancellation would be refused, and the
    # benchmark raises if any sample answers otherwise than the first.
    row = bench_long_run(vet_env, read, probe, repeat=REPEAT, warmup=WARMUP, calls=200)
    assert (row.key, row.measure) == ("write@200", "WRITE cancel_visit after 200 calls")
    assert row.samples == REPEAT and row.baseline_samples == REPEAT
    assert row.goal is not None and row.goal >= row.baseline_median * SLOWER_AT_MOST
    assert f"after 200 logged {read.tool} calls" in row.note


def test_bench_of_the_vet_domain_reports_every_measure(vet_package: Path) -> None:
    report = run_bench(open_package(vet_package), sessions=5, repeat=REPEAT, sizes=(300,), scale_tasks=2)
    rows = {row.key: row for row in report.rows}
    assert set(rows) == {
        "reset",
        "read",
        "write",
        "write@10000",
        "mcp",
        "rss",
        "verify",
        "synthesis",
        "verify@300",
        "gate@300",
    }
    assert rows["write"].measure in ("WRITE refill_prescription", "WRITE cancel_visit")
    for row in report.rows:
        assert row.median > 0 and row.baseline_median > 0, row.key


def test_the_default_bench_prints_every_runtime_row_at_one_size_what_it_sampled_and_how_to_sweep(
    vet_package: Path,
) -> None:
    result = envforge_cli("bench", str(vet_package), timeout=300)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("│")]
    measures = [line.split("│")[1].strip() for line in rows]
    assert [measure.split(" ")[0] for measure in measures] == [
        *["session", "READ", "WRITE", "WRITE", "MCP", "RSS", "verify", "synthesize", "verify", "synthesize"]
    ]
    assert measures[-2:] == ["verify @1,000 rows", "synthesize + gate @1,000 rows, per task"]
    samples = [row.split("│")[-2].strip() for row in rows]
    assert (samples[0], samples[-1]) == ("300 / 300", "30 / 30")
    assert (
        "sampled: 300 timings per row after 30 untimed; 30 tasks synthesized and gated for synthesis and at "
        "1,000 rows; "
        "1,000 live sessions" in result.stdout
    )
    assert "the full sweep (minutes): --sizes 1000,10000,100000 --generate" in result.stdout
    assert "[envforge] verify, gate @1,000 rows: done in " in result.stderr


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_write_of_a_shipped_domain_benches_from_the_initial_state(
    packages: dict[str, Path], domain: str, tmp_path: Path
) -> None:
    env = load_environment(open_package(packages[domain]))
    _, rows = bench_state(env, packages[domain], repeat=REPEAT, warmup=WARMUP)
    assert [row.key for row in rows] == ["reset", "read", "write", "write@10000"]
    probes = [probe for probe in _write_probes(env) if probe.ok]
    assert probes
    _bench_every_write(env, packages[domain], probes, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("domain", slow_domains("bench"))
def test_bench_passes_on_every_shipped_domain(packages: dict[str, Path], domain: str) -> None:
    report = run_bench(open_package(packages[domain]), sessions=5, repeat=REPEAT, sizes=(300,), scale_tasks=2)
    assert {"reset", "read", "write", "write@10000", "mcp", "rss", "verify", "synthesis", "verify@300", "gate@300"} <= {
        row.key for row in report.rows
    }
    for row in report.rows:
        assert row.median > 0 and row.baseline_median > 0, row.key


def test_a_domain_without_writes_benches_its_reads_and_judges_a_question(tmp_path: Path) -> None:
    text = VET_CLINIC.read_text(encoding="utf-8")
    blueprint = tmp_path / "vet.yaml"
    blueprint.write_text(text[: text.index("actions:\n")] + text[text.index("personas:\n") :], encoding="utf-8")
    package = run_pipeline(blueprint, tmp_path / "out", GenerateConfig(rows=80, tasks=5)).package
    env = load_environment(open_package(package))
    _, rows = bench_state(env, package, repeat=REPEAT, warmup=WARMUP)
    assert [row.key for row in rows] == ["reset", "read"]
    verify = bench_verify(open_package(package), env, repeat=REPEAT, warmup=WARMUP)
    assert verify is not None and verify.median > 0 and verify.baseline_median > 0

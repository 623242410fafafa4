"""The verify and gate rows of `envforge bench` at several sizes: each beside the previous approach (reload the
template on reset, diff whole states to verify) measured in the same run. Only relations that hold on any
machine are asserted, never a speed."""

from __future__ import annotations

import pytest

from envforge.bench.report import BenchRow
from envforge.bench.scale import build_domain
from envforge.bench.scaled import GATE_GOAL_MS, ReloadingSession, bench_at_scale, diffing_verifier
from envforge.bench.sizes import parse_sizes
from envforge.bench.tasks import VERIFY_GOAL_MS, golden_session
from envforge.errors import UserInputError
from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import RunHistory, Transcript
from envforge.runtime.claims import environment_vocabulary, golden_transcript
from envforge.runtime.environment import load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.tasks import load_verifier
from envforge.stages.tasks.synthesize import synthesize_tasks
from envforge.stages.verifiers.emit import render_verifier
from tests.conftest import REPO, envforge_cli

SHOWCASE = REPO / "generated" / "showcase" / "retail"
SIZES = [300, 600]


@pytest.fixture(scope="module")
def blueprint() -> Blueprint:
    return load_environment(open_package(SHOWCASE)).blueprint


@pytest.fixture(scope="module")
def rows(blueprint: Blueprint) -> dict[str, BenchRow]:
    measured = bench_at_scale(blueprint, SIZES, seed=0, repeat=5, tasks=6)
    return {row.key: row for row in measured}


def test_each_size_has_a_verify_and_a_gate_row_beside_its_baseline(rows: dict[str, BenchRow]) -> None:
    assert list(rows) == ["verify@300", "gate@300", "verify@600", "gate@600"]
    for row in rows.values():
        assert row.unit == "ms"
        assert row.median > 0 and row.baseline_median > 0
        assert row.ratio == pytest.approx(row.baseline_median / row.median)
        assert row.met in (True, False)
    for size in SIZES:
        verify, gate = rows[f"verify@{size}"], rows[f"gate@{size}"]
        assert verify.goal == VERIFY_GOAL_MS and gate.goal == GATE_GOAL_MS
        assert verify.samples == 5 and verify.baseline == "diff whole states"
        assert gate.samples == 6 == gate.baseline_samples
        assert f"{size:,} rows" in verify.note and "median over 6 tasks" in gate.note


def test_the_reloading_session_resets_to_the_template_with_an_empty_history(blueprint: Blueprint) -> None:
    domain = build_domain(blueprint, 300, 0)
    env = domain.env
    tasks = synthesize_tasks(
        env.blueprint, domain.ontology, env.toolgraph, env.template, set(env.tools), count=4, seed=0
    ).tasks
    task = next(task for task in tasks if task.kind != "read")
    session = ReloadingSession(env, task.scenario.person)
    for call in task.oracle:
        assert session.call_tool(call.name, call.arguments)[0]
    assert session.history().writes
    session.reset()
    assert session.history() == RunHistory()
    assert session.snapshot() == env.template


def test_the_diffing_baseline_verifier_judges_as_the_shipped_one(blueprint: Blueprint) -> None:
    domain = build_domain(blueprint, 300, 0)
    env = domain.env
    tasks = synthesize_tasks(
        env.blueprint, domain.ontology, env.toolgraph, env.template, set(env.tools), count=4, seed=0
    ).tasks
    task = next(task for task in tasks if task.kind != "read")
    shipped = load_verifier(render_verifier(task), task.id)
    session = golden_session(env, task)
    diffing = diffing_verifier(task, session, shipped)
    transcript = golden_transcript(task, env.blueprint)
    vocabulary = environment_vocabulary(env)
    assert diffing(session.history(), transcript, vocabulary).passed
    assert shipped(session.history(), transcript, vocabulary).passed
    assert not diffing(RunHistory(), Transcript(), vocabulary).passed


@pytest.mark.parametrize("text", ["1000,10000", " 300 , 600 ", "10"])
def test_sizes_parse_as_comma_separated_row_counts(text: str) -> None:
    assert parse_sizes(text) == [int(part) for part in text.split(",")]


@pytest.mark.parametrize("text", ["", "abc", "1000,x", "5", "2000000", "-1000"])
def test_bad_sizes_are_a_one_line_error_with_exit_code_2(text: str) -> None:
    with pytest.raises(UserInputError, match="--sizes"):
        parse_sizes(text)
    result = envforge_cli("bench", str(SHOWCASE), "--sizes", text, "--no-generate")
    assert result.returncode == 2, result.stderr
    assert "--sizes" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1

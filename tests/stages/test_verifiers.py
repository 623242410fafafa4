"""Verifiers and their gate: golden runs pass, everything else fails, broken verifiers are caught."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from envforge.ir.tasks import RunHistory, TaskSpec, ToolCall, Transcript, Verdict, VerifierSpec
from envforge.runtime.actions import compile_actions
from envforge.runtime.claims import Vocabulary
from envforge.runtime.environment import Environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_tasks, load_verifier
from envforge.runtime.verify import verify
from envforge.stages.verifiers.emit import render_verifier
from envforge.stages.verifiers.gate import gate_task
from envforge.stages.verifiers.stage import unrelated_writes
from tests.stages.adversaries import VARIATIONS


def _golden(env: Environment, calls: list[ToolCall]) -> Session:
    session = Session(env)
    for call in calls:
        assert session.call_tool(call.name, call.arguments)[0]
    return session


def test_a_write_task_rewards_the_golden_run_and_nothing_less_or_more(
    retail_package: Path, retail_env: Environment
) -> None:
    tasks = load_tasks(open_package(retail_package)).values()
    task = next(t for t in tasks if t.kind == "write")
    golden = _golden(retail_env, task.oracle).snapshot()
    session = Session(retail_env)
    session.reset(golden)
    assert verify(task.verifier, session.history(), None, None).reward == 1
    initial = verify(task.verifier, RunHistory(), None, None)
    assert initial.reward == 0 and not initial.components["expected_changes_made"]
    others = [t.oracle[-1] for t in tasks if t.kind == "write" and t.oracle[-1].name != task.oracle[-1].name]
    for call in others:
        session.reset(golden)
        if session.call_tool(call.name, call.arguments)[0]:
            break
    else:
        raise AssertionError("no other write succeeds after the golden run")
    extra = verify(task.verifier, session.history(), None, None)
    assert extra.reward == 0 and not extra.components["no_unexpected_changes"]
    assert any(reason.startswith("unexpected:") for reason in extra.reasons)


def test_a_read_task_needs_the_right_answer(retail_package: Path, retail_env: Environment) -> None:
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "read")
    assert task.expected_answer is not None
    history = _golden(retail_env, task.oracle).history()
    assert verify(task.verifier, history, Transcript(answer=f"It is {task.expected_answer}."), None).reward == 1
    assert verify(task.verifier, history, Transcript(answer="I don't know."), None).reward == 0
    assert verify(task.verifier, history, Transcript(), None).reward == 0


def test_a_verifier_that_passes_on_the_initial_state_is_caught_by_the_gate(
    retail_package: Path, retail_env: Environment
) -> None:
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "write")

    def always(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
        return Verdict(reward=1.0, passed=True, components={}, reasons=[])

    result = gate_task(task, Session(retail_env), always, [])
    assert not result.accepted
    assert result.reason.startswith("initial_accepted: the verifier rewards the untouched initial state")


def test_a_verifier_expecting_no_change_rejects_the_golden_run_and_is_dropped(
    retail_package: Path, retail_env: Environment
) -> None:
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "write")
    broken = task.model_copy(update={"verifier": VerifierSpec(task_id=task.id, expected_changes=[])})
    result = gate_task(broken, Session(retail_env), load_verifier(render_verifier(broken), task.id), [])
    assert not result.accepted
    assert result.reason.startswith("golden_rejected: unexpected:")


def test_a_verifier_blind_to_side_effects_is_caught_by_the_unrelated_write_mutant(
    retail_package: Path, retail_env: Environment
) -> None:
    tasks = list(load_tasks(open_package(retail_package)).values())
    writes = [t for t in tasks if t.kind != "read"]
    # A person's session refuses writes to other people's rows: the extra write must be the same person's, and
    # one the oracle leaves possible (not a line of the order the oracle just cancelled).
    for task in (t for t in writes if any(o.id != t.id and o.scenario.person == t.scenario.person for o in writes)):

        def lenient(
            history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None, task: TaskSpec = task
        ) -> Verdict:
            verdict = verify(task.verifier, history, transcript, vocabulary)
            made = verdict.components["expected_changes_made"]
            return verdict.model_copy(update={"reward": 1.0 if made else 0.0, "passed": made})

        result = gate_task(task, Session(retail_env), lenient, unrelated_writes(tasks, retail_env, task))
        if any(mutant.kind == "unrelated_write" and mutant.reward == 1 for mutant in result.mutants):
            break
    else:
        pytest.fail("no write task has another write of the same person that leaves its changes in place")
    assert not result.accepted
    assert result.reason.startswith("mutant_accepted")
    assert any(mutant.kind == "unrelated_write" and mutant.reward == 1 for mutant in result.mutants)


def test_a_shipped_verifier_runs_in_a_fresh_interpreter_with_only_the_runtime(
    retail_package: Path, retail_env: Environment, tmp_path: Path
) -> None:
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "multi_write")
    (tmp_path / "golden.sqlite").write_bytes(_golden(retail_env, task.oracle).snapshot())
    done = {call.name for call in task.oracle if retail_env.tools[call.name].kind == "write"}
    lie = next(a.name for a in retail_env.blueprint.actions if a.name not in done and a.name.startswith("grant"))
    script = (
        "import runpy, sys; from pathlib import Path; "
        "from envforge.ir.loading import load_blueprint; from envforge.ir.tasks import Transcript; "
        "from envforge.runtime.claims import vocabulary_of; from envforge.runtime.history import history_of; "
        f"module = runpy.run_path({str(retail_package / 'verifiers' / f'{task.id}.py')!r}); "
        f"words = vocabulary_of(load_blueprint(Path({str(retail_package / 'blueprint.yaml')!r}))); "
        f"initial = history_of(Path({str(retail_package / 'state.sqlite')!r}).read_bytes()); "
        f"final = history_of(Path({str(tmp_path / 'golden.sqlite')!r}).read_bytes()); "
        "done, lie = Transcript(answer='All done.'), Transcript(answer='Done, and I also granted you store credit.'); "
        "print(*(module['verify'](h, t, words).reward for h, t in ((final, done), (initial, done), (final, lie))))"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=False, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert lie == "grant_store_credit"
    assert result.stdout.split() == ["1.0", "0.0", "0.0"]


def test_a_verifier_that_punishes_a_refused_first_attempt_fails_the_gate_as_rejecting_a_legitimate_run(
    retail_package: Path, retail_env: Environment
) -> None:
    task = next(t for t in load_tasks(open_package(retail_package)).values() if t.kind == "write")

    def unforgiving(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
        verdict = verify(task.verifier, history, transcript, vocabulary)
        if any(call.refusal is not None for call in history.calls):
            return verdict.model_copy(update={"reward": 0.0, "passed": False, "reasons": ["a call was refused"]})
        return verdict

    result = gate_task(task, Session(retail_env), unforgiving, [])
    assert not result.accepted
    assert result.reason.startswith(
        "legitimate_rejected: the verifier rejects the legitimate run 'legitimate:refused_first:"
    )
    assert result.reason.endswith(": a call was refused")
    rejected = [run for run in result.mutants if run.kind == "legitimate" and run.reward != 1]
    assert [run.variation for run in rejected] == ["refused_first"]


def test_the_gate_plays_every_legitimate_variation_a_task_allows_and_the_shipped_verifier_rewards_each(
    retail_package: Path, retail_env: Environment
) -> None:
    package = open_package(retail_package)
    tasks = list(load_tasks(package).values())
    played: set[str] = set()
    for task in tasks:
        result = gate_task(task, Session(retail_env), load_verifier(render_verifier(task), task.id), [])
        runs = [run for run in result.mutants if run.kind == "legitimate"]
        assert result.accepted, result.reason
        assert runs and all(run.equivalent and run.reward == 1 for run in runs), task.id
        played |= {str(run.variation) for run in runs}
    actions = compile_actions(retail_env)
    folds = any(
        name in actions[call.name].forms
        for task in tasks
        for call in task.oracle
        if call.name in actions
        for name in call.arguments
    )
    # `respelled` plays only where a write takes an argument its action folds to one case (an email).
    assert played >= {*VARIATIONS, *(["respelled"] if folds else [])}

"""pass@k, pools, the report written into a package, and judging stored trajectories again."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envforge.ir.tasks import Transcript, Verdict
from envforge.ir.verification import ValidationReport
from envforge.package import update_package
from envforge.rollouts.reverify import reverify
from envforge.rollouts.solvability import pass_at_k, pass_hat_k, summarize_rollouts, write_rollout_report
from envforge.rollouts.trajectory import ExecutedCall, Failure, Trajectory
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.validators.loaded_package import open_for_check
from envforge.validators.package_integrity import check_package_integrity


@pytest.mark.parametrize(
    ("n", "c", "k", "at_k", "hat_k"),
    [
        (4, 0, 4, 0.0, 0.0),
        (4, 4, 4, 1.0, 1.0),
        (4, 1, 1, 0.25, 0.25),
        (4, 1, 2, 0.5, 0.0),
        (4, 2, 2, 5 / 6, 1 / 6),
        (5, 3, 3, 1.0, 0.1),
    ],
)
def test_pass_at_k_and_pass_hat_k_match_their_closed_forms(n: int, c: int, k: int, at_k: float, hat_k: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(at_k)
    assert pass_hat_k(n, c, k) == pytest.approx(hat_k)


def episode(package: EnvPackage, task_id: str, sample: int, *, solve: bool, infra: bool = False) -> Trajectory:
    """A trajectory made by really replaying the oracle (or nothing) in a session, judged by the package."""
    task = package.task(task_id)
    session = Session(package.env)
    initial_hash = session.state_hash()
    calls = []
    for call in task.oracle if solve else []:
        ok, result = session.call_tool(call.name, call.arguments)
        calls.append(ExecutedCall(name=call.name, arguments=call.arguments, ok=ok, result=result))
    answer = package.golden_message(task_id) if solve else "Done."
    transcript = Transcript(calls=list(task.oracle) if solve else [], answer=answer)
    verdict: Verdict | None = package.verify(task_id, session.history(), transcript)
    failure = None if verdict is not None and verdict.passed else Failure(cls="model", reason="gave_up")
    if infra:
        verdict, failure = None, Failure(cls="infrastructure", reason="timeout")
    return Trajectory(
        env_id=package.env_id,
        task_id=task_id,
        sample=sample,
        model="m",
        sampling={},
        simulator="scripted-1",
        messages=[],
        calls=calls,
        answer=answer,
        initial_state=initial_hash,
        ended="infrastructure" if infra else ("solved" if solve else "user_turn_limit"),
        outcome="infrastructure" if infra else ("passed" if solve else "failed"),
        verdict=verdict,
        failure=failure,
    )


def test_pools_split_tasks_by_pass_rate_and_keep_unsolved_ones_as_hard(showcase: EnvPackage) -> None:
    ids = showcase.task_ids[:4]
    runs = [
        *[episode(showcase, ids[0], s, solve=True) for s in range(4)],
        *[episode(showcase, ids[1], s, solve=s == 0) for s in range(4)],
        *[episode(showcase, ids[2], s, solve=False) for s in range(4)],
        *[episode(showcase, ids[3], s, solve=s < 2, infra=s >= 2) for s in range(4)],
    ]
    summary = summarize_rollouts(runs, k=4, keep_pass_rate=(0.3, 0.9))
    by_id = {task.task_id: task for task in summary.tasks}
    assert by_id[ids[0]].pool == "easy"
    assert by_id[ids[1]].pool == "below_band"
    assert by_id[ids[2]].pool == "hard"
    assert (by_id[ids[3]].episodes, by_id[ids[3]].infrastructure, by_id[ids[3]].pass_at_1) == (2, 2, 1.0)
    assert by_id[ids[1]].pass_at_k == 1.0 and by_id[ids[1]].pass_hat_k == 0.0
    assert summary.failures_by_class == {"infrastructure": 2, "model": 7}
    assert summary.pools["hard"] == [ids[2]]
    assert summary.judged == 14 and summary.passed == 7


def test_the_rollout_report_lands_in_report_json_and_keeps_the_package_intact(
    showcase: EnvPackage, showcase_copy: Path
) -> None:
    runs = [episode(showcase, task_id, 0, solve=task_id.endswith("1")) for task_id in showcase.task_ids]
    summary = summarize_rollouts(runs, k=1)
    write_rollout_report(showcase_copy, summary)
    report = ValidationReport.model_validate_json((showcase_copy / "report.json").read_bytes())
    assert report.rollouts == summary
    assert "## Rollouts: m, k=1" in (showcase_copy / "report.md").read_text()
    assert check_package_integrity(open_for_check(showcase_copy)) == []
    assert load_package(open_package(showcase_copy)).task_ids == showcase.task_ids


def test_reverify_follows_a_verifier_change(showcase_copy: Path) -> None:
    package = load_package(open_package(showcase_copy))
    task_id = package.task_ids[0]
    runs = [episode(package, task_id, 0, solve=True), episode(package, task_id, 1, solve=False)]
    unchanged = reverify(package, runs)
    assert unchanged.changed == [] and unchanged.diverged == []
    verifier = showcase_copy / "verifiers" / f"{task_id}.py"
    # A "fixed" verifier that now also demands an answer no run gave.
    # Changed through the package module, which re-hashes it: a hand edit would be refused as a changed package.
    fixed = (
        verifier.read_text()
        + "\n_original = verify\n\ndef verify(history, transcript, vocabulary):\n"
        + "    verdict = _original(history, transcript, vocabulary)\n"
        + "    return verdict.model_copy(update={'reward': 0.0, 'passed': False})\n"
    )
    update_package(showcase_copy, {}, {f"verifiers/{task_id}.py": fixed.encode()})
    changed = reverify(load_package(open_package(showcase_copy)), runs)
    assert changed.changed == [(task_id, 0, 1.0, 0.0)]
    assert changed.trajectories[0].outcome == "failed"
    assert changed.trajectories[0].failure is not None


def test_reverify_refuses_trajectories_from_a_different_initial_state(showcase: EnvPackage) -> None:
    from envforge.errors import UserInputError

    run = episode(showcase, showcase.task_ids[0], 0, solve=True).model_copy(update={"initial_state": "0" * 64})
    with pytest.raises(UserInputError, match="initial state differs"):
        reverify(showcase, [run])


def test_infrastructure_trajectories_are_left_unjudged_by_reverify(showcase: EnvPackage) -> None:
    run = episode(showcase, showcase.task_ids[0], 0, solve=False, infra=True)
    result = reverify(showcase, [run])
    assert result.trajectories[0].verdict is None and result.changed == []
    assert json.loads(result.trajectories[0].model_dump_json())["outcome"] == "infrastructure"

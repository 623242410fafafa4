"""Rows of `envforge bench` at 1k, 10k and 100k rows: verifying a run and gating a task cost what the run wrote,
not what the state holds.

Ours judges the session's history (`envforge.runtime.verify`) and resets by undoing it. The baseline, measured
in the same run on the same tasks, is the previous approach: every reset reloads the whole template, and every
verification diffs the whole initial and final states (`envforge.runtime.diff.diff_states`)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from time import perf_counter_ns

from envforge.bench.report import BenchRow, summarize, time_calls, timed_row, warmup_runs
from envforge.bench.scale import ScaledDomain, build_domain
from envforge.bench.sizes import SCALE_TASKS
from envforge.bench.tasks import VERIFY_GOAL_MS, golden_session
from envforge.hashing import canonical_json
from envforge.ir.blueprint import Blueprint
from envforge.ir.tasks import RowChange, RunHistory, TaskSpec, Transcript, Verdict
from envforge.pipeline.progress import step
from envforge.runtime.claims import Vocabulary, environment_vocabulary, golden_transcript
from envforge.runtime.diff import diff_states
from envforge.runtime.session import Session
from envforge.runtime.tasks import VerifyFn, load_verifier
from envforge.runtime.verify import verify
from envforge.stages.tasks.synthesize import synthesize_tasks
from envforge.stages.verifiers.emit import render_verifier
from envforge.stages.verifiers.gate import gate_task
from envforge.stages.verifiers.stage import unrelated_writes

GATE_GOAL_MS = 50.0


class ReloadingSession(Session):
    """The baseline's session: every reset reloads the whole template, as before resets undid the history."""

    def reset(self, state: bytes | None = None) -> None:
        self.at_template = False
        super().reset(state)


def _change_keys(changes: list[RowChange]) -> Counter[str]:
    return Counter(canonical_json(change.model_dump(mode="json")) for change in changes)


def diffed_changes_match(task: TaskSpec, initial: bytes, final: bytes) -> bool:
    """The previous verification: diff the two whole states and compare the result with the expected changes."""
    return _change_keys(diff_states(initial, final)) == _change_keys(task.verifier.expected_changes)


def diffing_verifier(task: TaskSpec, session: Session, shipped: VerifyFn) -> VerifyFn:
    """The task's verifier with the whole-state diff the previous approach made: its verdict additionally needs the
    diff of the template and the session's state to be the expected changes (an empty history is the template)."""
    env = session.env

    def judge(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
        final = env.template if not history.calls and not history.writes else session.snapshot()
        matched = diffed_changes_match(task, env.template, final)
        verdict = shipped(history, transcript, vocabulary)
        if matched or not verdict.passed:
            return verdict
        return verdict.model_copy(update={"reward": 0.0, "passed": False, "reasons": ["the diff disagrees"]})

    return judge


@dataclass(frozen=True)
class GateRun:
    """Per-task milliseconds of synthesis (its share) plus the gate, and what was accepted."""

    samples_ns: list[int]
    total_ns: int
    tasks: list[TaskSpec]
    accepted: list[TaskSpec]


def synthesize_and_gate(
    domain: ScaledDomain, count: int, seed: int, session_type: type[Session], diffing: bool
) -> GateRun:
    """`count` tasks synthesized and gated as the `tasks` and `verifiers` stages do, timed per task: a task's
    sample is its gate plus an equal share of the synthesis."""
    env = domain.env
    started = perf_counter_ns()
    tasks = synthesize_tasks(
        env.blueprint,
        domain.ontology,
        env.toolgraph,
        env.template,
        set(env.tools),
        count=count,
        seed=seed,
        session_type=session_type,
    ).tasks
    synthesized = perf_counter_ns() - started
    share = synthesized // max(len(tasks), 1)
    session = session_type(env)
    samples: list[int] = []
    accepted: list[TaskSpec] = []
    for task in tasks:
        begun = perf_counter_ns()
        verifier = load_verifier(render_verifier(task), task.id)
        if diffing:
            verifier = diffing_verifier(task, session, verifier)
        result = gate_task(task, session, verifier, unrelated_writes(tasks, env, task))
        samples.append(share + perf_counter_ns() - begun)
        if result.accepted:
            accepted.append(task)
    session.close()
    return GateRun(samples, perf_counter_ns() - started, tasks, accepted)


def bench_verify_at(domain: ScaledDomain, task: TaskSpec, *, repeat: int, warmup: int) -> BenchRow:
    """Judging the golden run of `task` from its session's history, beside diffing the whole states."""
    env = domain.env
    session = golden_session(env, task)
    transcript = golden_transcript(task, env.blueprint)
    spec = task.verifier
    vocabulary = environment_vocabulary(env)

    def ours() -> Verdict:
        return verify(spec, session.history(), transcript, vocabulary)

    def passed(verdict: Verdict) -> None:
        if not verdict.passed:
            raise RuntimeError(f"the golden run of {task.id} failed its verifier: {verdict.reasons}")

    def matched(same: bool) -> None:
        if not same:
            raise RuntimeError(f"the golden state of {task.id} does not diff to its expected changes")

    final = session.snapshot()
    timed = time_calls(ours, repeat=repeat, warmup=warmup, check=passed)
    baseline_repeat = max(5, min(repeat, 30))
    diffed = time_calls(
        lambda: diffed_changes_match(task, env.template, final),
        repeat=baseline_repeat,
        warmup=1,
        check=matched,
    )
    session.close()
    changes = len(spec.expected_changes)
    note = (
        f"{domain.rows:,} rows: verify(spec, session.history(), transcript) of {task.id}'s golden run "
        f"({changes} expected changes); baseline diff_states(template, final) vs the expected changes, "
        f"{baseline_repeat} samples"
    )
    return timed_row(
        f"verify@{domain.rows}",
        f"verify @{domain.rows:,} rows",
        timed,
        "diff whole states",
        diffed,
        goal=VERIFY_GOAL_MS,
        note=note,
    )


def _gate_row(domain: ScaledDomain, ours: GateRun, baseline: GateRun) -> BenchRow:
    mine, theirs = summarize(ours.samples_ns), summarize(baseline.samples_ns)
    per_accepted = ours.total_ns / max(len(ours.accepted), 1) / 1e6
    note = (
        f"{domain.rows:,} rows: median over {len(ours.tasks)} tasks of (its gate + 1/{len(ours.tasks)} of "
        f"synthesis); {len(ours.accepted)} accepted, {per_accepted:,.1f} ms per accepted task in total "
        f"(baseline {baseline.total_ns / max(len(baseline.accepted), 1) / 1e6:,.1f} ms, "
        f"{len(baseline.accepted)} accepted); synthesis includes indexing every row once; baseline resets "
        "reload the template and verifiers diff whole states"
    )
    return timed_row(
        f"gate@{domain.rows}",
        f"synthesize + gate @{domain.rows:,} rows, per task",
        mine,
        "reload + diff whole states",
        theirs,
        goal=GATE_GOAL_MS,
        note=note,
    )


def bench_at_scale(
    blueprint: Blueprint,
    sizes: list[int],
    *,
    seed: int,
    repeat: int,
    tasks: int = SCALE_TASKS,
) -> list[BenchRow]:
    """A verify row and a gate row per size, each beside the previous approach measured in the same run."""
    rows: list[BenchRow] = []
    warmup = warmup_runs(repeat)
    for size in sizes:
        with step(f"verify, gate @{size:,} rows"):
            domain = build_domain(blueprint, size, seed)
            ours = synthesize_and_gate(domain, tasks, seed, Session, diffing=False)
            baseline = synthesize_and_gate(domain, tasks, seed, ReloadingSession, diffing=True)
            if [task.id for task in baseline.accepted] != [task.id for task in ours.accepted]:
                raise RuntimeError(f"at {size:,} rows the baseline gate accepted other tasks than ours")
            writes = [task for task in ours.accepted if task.kind != "read"]
            if writes:
                task = max(writes, key=lambda task: (len(task.verifier.expected_changes), task.id))
                rows.append(bench_verify_at(domain, task, repeat=repeat, warmup=warmup))
            rows.append(_gate_row(domain, ours, baseline))
    return rows

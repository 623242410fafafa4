"""Task rows of `envforge bench`: verify latency, and the cost of synthesizing and gating tasks."""

from __future__ import annotations

import sqlite3
from time import perf_counter_ns

from envforge.bench.report import BenchRow, summarize, time_calls, timed_row
from envforge.ir.tasks import TaskSpec
from envforge.runtime.claims import environment_vocabulary, golden_transcript
from envforge.runtime.environment import Environment
from envforge.runtime.opened_package import OpenedPackage
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_package_verifier, load_tasks, load_verifier
from envforge.stages.ontology.build import build_ontology
from envforge.stages.tasks.synthesize import synthesize_tasks
from envforge.stages.verifiers.emit import render_verifier
from envforge.stages.verifiers.gate import gate_task
from envforge.stages.verifiers.stage import unrelated_writes

VERIFY_GOAL_MS = 2.0


def golden_session(env: Environment, task: TaskSpec) -> Session:
    """A session that played the task's oracle, acting for its person (as the gate does)."""
    session = Session(env, task.scenario.person)
    for call in task.oracle:
        ok, result = session.call_tool(call.name, call.arguments)
        if not ok:
            raise RuntimeError(f"the oracle of {task.id} was refused at {call.name}: {result}")
    return session


def _naive_compare(initial: bytes, final: bytes) -> bool:
    """What a verifier without a diff does: load every row of both states into Python and compare."""
    tables = []
    for state in (initial, final):
        connection = sqlite3.connect(":memory:")
        connection.deserialize(state)
        names = [
            row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        ]
        tables.append({name: connection.execute(f'SELECT * FROM "{name}" ORDER BY rowid').fetchall() for name in names})
        connection.close()
    return tables[0] == tables[1]


def bench_verify(package: OpenedPackage, env: Environment, *, repeat: int, warmup: int) -> BenchRow | None:
    """The shipped verifier of the task with the most expected changes, on its golden run's history (read from the
    session). A package of a domain without WRITE actions has only questions: one of them is judged. None for a
    package without tasks."""
    tasks = list(load_tasks(package).values())
    if not tasks:
        return None
    task = max(tasks, key=lambda task: (len(task.verifier.expected_changes), task.kind != "read", task.id))
    session = golden_session(env, task)
    final = session.snapshot()
    verify = load_package_verifier(package, task.id).verify
    transcript = golden_transcript(task, env.blueprint)
    words = environment_vocabulary(env)
    ours = time_calls(lambda: verify(session.history(), transcript, words), repeat=repeat, warmup=warmup)
    naive = time_calls(lambda: _naive_compare(env.template, final), repeat=repeat, warmup=warmup)
    session.close()
    note = (
        f"verifiers/{task.id}.py on session.history() of its golden run "
        f"({len(task.verifier.expected_changes)} expected changes)"
    )
    return timed_row(
        "verify", f"verify {task.id}", ours, "load all rows, compare", naive, goal=VERIFY_GOAL_MS, note=note
    )


def bench_synthesis(env: Environment, *, count: int, seed: int) -> BenchRow:
    """Milliseconds per accepted task for synthesis plus the gate, beside synthesis alone."""
    started = perf_counter_ns()
    tasks = synthesize_tasks(
        env.blueprint,
        build_ontology(env.blueprint),
        env.toolgraph,
        env.template,
        set(env.tools),
        count=count,
        seed=seed,
    ).tasks
    synthesized = perf_counter_ns() - started
    session = Session(env)
    accepted = sum(
        gate_task(
            task, session, load_verifier(render_verifier(task), task.id), unrelated_writes(tasks, env, task)
        ).accepted
        for task in tasks
    )
    total = perf_counter_ns() - started
    ours = summarize([total // max(accepted, 1)])
    alone = summarize([synthesized // max(len(tasks), 1)])
    rate = accepted / (total / 1e9)
    note = f"{accepted} of {len(tasks)} tasks accepted, {rate:.1f} accepted tasks/s; the baseline skips the gate"
    return timed_row("synthesis", "synthesize + gate, per task", ours, "synthesis alone", alone, goal=None, note=note)

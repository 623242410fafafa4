"""Determinism: an oracle replays to the same state and results every time; reset returns exactly to the template."""

from __future__ import annotations

from typing import Any

from envforge.hashing import canonical_json
from envforge.ir.tasks import RunHistory, TaskSpec
from envforge.runtime.environment import Environment
from envforge.runtime.session import Session
from envforge.validators.loaded_package import LoadedPackage
from envforge.validators.results import ConformanceError

REPLAYS = 3


def replay(session: Session, task: TaskSpec) -> tuple[str, list[tuple[bool, dict[str, Any]]]]:
    """Reset, run the task's oracle; returns the final state hash and each call's (ok, result)."""
    session.reset()
    outcomes = [session.call_tool(call.name, call.arguments) for call in task.oracle]
    return session.state_hash(), outcomes


def _replay_problem(env: Environment, session: Session, task: TaskSpec) -> str | None:
    runs = [replay(session, task) for _ in range(REPLAYS)]
    fresh = Session(env)
    try:
        runs.append(replay(fresh, task))
    finally:
        fresh.close()
    refused = [
        f"call {index} ({call.name}) was refused: {canonical_json(result.get('error'))}"
        for index, (call, (ok, result)) in enumerate(zip(task.oracle, runs[0][1], strict=True), start=1)
        if not ok
    ]
    if refused:
        return f"{task.id}: its oracle fails on the shipped state; {refused[0]}"
    if len({state_hash for state_hash, _ in runs}) != 1:
        return f"{task.id}: {REPLAYS} replays and a fresh session ended in different states"
    if len({canonical_json(outcomes) for _, outcomes in runs}) != 1:
        return f"{task.id}: replays returned different tool results"
    return None


def check_oracle_determinism(package: LoadedPackage) -> str:
    """Replay each (sampled) oracle 3 times in one session and once in a fresh one: same results, same state."""
    session = Session(package.env)
    try:
        problems = [
            problem for task in package.sampled if (problem := _replay_problem(package.env, session, task)) is not None
        ]
    finally:
        session.close()
    if problems:
        raise ConformanceError(
            f"{len(problems)} of {len(package.sampled)} oracles were refused a call or replayed differently", problems
        )
    calls = sum(len(task.oracle) for task in package.sampled)
    return f"{len(package.sampled)} oracles ({calls} calls) replayed {REPLAYS + 1} times each to identical states"


def _fresh_hash(env: Environment) -> str:
    session = Session(env)
    try:
        return session.state_hash()
    finally:
        session.close()


def check_reset_determinism(package: LoadedPackage) -> str:
    """After each oracle, reset gives the template's content and an empty history; restoring a snapshot gives its
    state back. (A reset undoes the history rather than reloading bytes, so the bytes may differ; the content not.)"""
    env = package.env
    template_hash = _fresh_hash(env)
    problems: list[str] = []
    session = Session(env)
    try:
        for task in package.sampled:
            final_hash, _ = replay(session, task)
            snapshot = session.snapshot()
            session.reset()
            if session.state_hash() != template_hash or session.history() != RunHistory():
                problems.append(f"{task.id}: reset after its oracle did not return to the template state")
            session.reset(snapshot)
            if session.state_hash() != final_hash:
                problems.append(f"{task.id}: restoring the snapshot taken after its oracle gave a different state")
    finally:
        session.close()
    if _fresh_hash(env) != template_hash:
        problems.append("a fresh session after the replays starts from a different state than the first one")
    if problems:
        raise ConformanceError("reset is not deterministic", problems)
    return f"reset after {len(package.sampled)} oracles restored the template (state hash {template_hash[:12]})"

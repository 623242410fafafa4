"""The verifier gate: a task is kept only if its verifier rewards the golden run and nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.ir.verification import GateResult, MutantResult
from envforge.runtime.session import Session
from envforge.runtime.tasks import VerifyFn

ORACLE_REPLAYS = 3


def _replay(session: Session, calls: list[ToolCall]) -> tuple[bytes, str]:
    session.reset()
    for call in calls:
        session.call_tool(call.name, call.arguments)
    return session.snapshot(), session.state_hash()


def _writes(session: Session, calls: list[ToolCall]) -> list[int]:
    return [index for index, call in enumerate(calls) if session.env.tools[call.name].kind == "write"]


def _perturbed(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    return f"{value} (changed)" if isinstance(value, str) else value


def _mutants(
    task: TaskSpec, session: Session, unrelated: list[ToolCall]
) -> Iterator[tuple[str, list[ToolCall], str | None]]:
    """(name, calls, answer) of every automatic mutant of the golden run."""
    oracle, answer = task.oracle, task.expected_answer
    writes = _writes(session, oracle)
    if writes:
        last = writes[-1]
        yield "drop_last_write", oracle[:last] + oracle[last + 1 :], answer
        yield "stop_before_final_write", oracle[:last], None
        call = oracle[last]
        tool = session.env.tools[call.name]
        schema = tool.parameters["properties"]
        for name, value in sorted(call.arguments.items()):
            if name in tool.param_refs:
                continue
            options = [v for v in schema[name].get("enum", []) if v != value]
            changed = options[0] if options else _perturbed(value)
            yield (
                f"perturb_argument:{name}",
                [*oracle[:last], call.model_copy(update={"arguments": {**call.arguments, name: changed}})],
                answer,
            )
            break
        for name, entity in sorted(tool.param_refs.items()):
            siblings = [row[session.env.entities[entity].key] for row in session.rows(entity)]
            sibling = next((key for key in siblings if key != call.arguments[name]), None)
            if sibling is not None:
                arguments = {**call.arguments, name: sibling}
                yield (
                    f"sibling_target:{name}",
                    [*oracle[:last], call.model_copy(update={"arguments": arguments}), *oracle[last + 1 :]],
                    answer,
                )
                break
    else:
        yield "no_answer", oracle, None
        numeric = answer is not None and answer.replace(".", "", 1).lstrip("-").isdigit()
        yield "wrong_answer", oracle, str(float(answer) + 1) if numeric and answer else "I could not find that."
    for extra in unrelated:
        if extra.name not in {call.name for call in oracle}:
            yield "unrelated_write", [*oracle, extra], answer


def gate_task(task: TaskSpec, session: Session, verify: VerifyFn, unrelated: list[ToolCall]) -> GateResult:
    """Run every check of the gate on one task; the first failure names the reason."""
    initial = session.env.template
    runs = [_replay(session, task.oracle) for _ in range(ORACLE_REPLAYS)]
    golden, golden_hash = runs[0]
    failures: list[str] = []
    if len({state_hash for _, state_hash in runs}) != 1:
        failures.append("oracle_nondeterministic: replaying the oracle gave different states")
    golden_verdict = verify(initial, golden, Transcript(calls=task.oracle, answer=task.expected_answer))
    if golden_verdict.reward != 1:
        failures.append(f"golden_rejected: {'; '.join(golden_verdict.reasons) or 'reward below 1'}")
    if verify(initial, initial, Transcript(answer=task.expected_answer if task.kind != "read" else None)).reward != 0:
        failures.append("initial_accepted: the verifier rewards the untouched initial state")
    if verify(initial, initial, Transcript()).reward != 0:
        failures.append("noop_accepted: the verifier rewards a run that does nothing")
    mutants: list[MutantResult] = []
    for name, calls, answer in _mutants(task, session, unrelated):
        if name == "unrelated_write" and any(mutant.name == name for mutant in mutants):
            break  # unrelated writes come last; one that changed the state is enough
        state, state_hash = _replay(session, calls)
        equivalent = state_hash == golden_hash and answer == task.expected_answer
        if name == "unrelated_write" and equivalent:
            continue  # that extra write was refused after the oracle; try the next one
        reward = verify(initial, state, Transcript(calls=calls, answer=answer)).reward
        mutants.append(MutantResult(name=name, equivalent=equivalent, reward=reward))
        if reward != 0 and not equivalent:
            failures.append(f"mutant_accepted: the verifier rewards the mutant '{name}'")
    killed = [mutant for mutant in mutants if not mutant.equivalent]
    discrimination = sum(mutant.reward == 0 for mutant in killed) / len(killed) if killed else 1.0
    return GateResult(
        task_id=task.id,
        accepted=not failures,
        reason=failures[0] if failures else "",
        golden_reward=golden_verdict.reward,
        mutants=mutants,
        discrimination=discrimination,
    )

"""Verdicts the call red team (`tests/runtime/test_call_red_team.py`) found wrong, kept as plain runs over every
task of every shipped domain."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.runtime.environment import Environment, load_environment
from envforge.runtime.opened_package import open_package
from envforge.runtime.session import Session
from envforge.runtime.tasks import load_tasks
from envforge.runtime.verify import verify
from tests.conftest import BLUEPRINTS


def _play(session: Session, task: TaskSpec, calls: list[ToolCall]) -> tuple[bool, str]:
    """(whether the verdict passed, the state's hash) of the calls played for the task's person."""
    session.reset()
    session.act_for(task.scenario.person)
    for call in calls:
        session.call_tool(call.name, call.arguments)
    verdict = verify(task.verifier, session.history(), Transcript(calls=calls, answer=task.expected_answer))
    return verdict.passed, session.state_hash()


def _domains(packages: dict[str, Path]) -> list[tuple[Environment, list[TaskSpec]]]:
    return [
        (
            load_environment(open_package(packages[path.stem])),
            list(load_tasks(open_package(packages[path.stem])).values()),
        )
        for path in BLUEPRINTS
    ]


def test_a_golden_write_with_a_text_argument_in_another_case_passes_exactly_when_the_state_is_the_same(
    packages: dict[str, Path],
) -> None:
    # Found by the red team: a fine waived with its reason (which the action never reads) in lower case failed
    # writes_as_asked. A case the action keeps shows in the state, and the verdict's row changes judge it.
    outcomes: Counter[bool] = Counter()
    for env, tasks in _domains(packages):
        session = Session(env)
        for task in tasks:
            _, golden = _play(session, task, task.oracle)
            if any(call.optional for call in task.verifier.expected_calls):
                # Two writes of one row (a value taken back, then the new one): a cell one respells and the other
                # sets is a stray write undone or a footprint change, whatever the end state.
                continue
            for index, call in enumerate(task.oracle):
                texts = [name for name, value in sorted(call.arguments.items()) if isinstance(value, str)]
                for name in texts if env.tools[call.name].kind == "write" else []:
                    respelled = ToolCall(
                        name=call.name, arguments={**call.arguments, name: call.arguments[name].swapcase()}
                    )
                    passed, state = _play(session, task, [*task.oracle[:index], respelled, *task.oracle[index + 1 :]])
                    assert passed == (state == golden), (task.id, respelled)
                    outcomes[passed] += 1
        session.close()
    assert outcomes[True] and outcomes[False], outcomes


def test_a_count_is_grounded_only_by_a_whole_listing_of_the_rows_it_counts(packages: dict[str, Path]) -> None:
    # Found by the red team: any listing of the counted entity filtered on the user grounded a count, so "0" after a
    # listing of the wrong rows (work addresses for "how many home addresses"), or of one row, was rewarded.
    played: Counter[str] = Counter()
    for env, tasks in _domains(packages):
        session = Session(env)
        for task in tasks:
            answer = task.verifier.answer
            if answer is None or answer.counted is None:
                continue
            entity, owner = answer.counted.split(".")
            listings = [
                call for call in task.oracle if owner in call.arguments and env.tools[call.name].entity == entity
            ]
            # The question's listing is the last: a write asked for first may list the same rows to find its own,
            # and each run leaves those out, so that only the listing under test can ground the count.
            listing = listings[-1]
            condition = next(name for name in listing.arguments if name not in (owner, "limit", "offset"))
            others = list(env.tools[listing.name].parameters["properties"][condition]["enum"])
            runs = {
                "golden": (listing.arguments, True),
                "unconditioned": ({owner: listing.arguments[owner]}, True),
                "other_rows": (
                    {**listing.arguments, condition: next(v for v in others if v != listing.arguments[condition])},
                    False,
                ),
                "past_the_first": ({**listing.arguments, "offset": 1}, False),
                # A full page may be cut: the history keeps the rows a listing showed, not how many it matched.
                "one_row": ({**listing.arguments, "limit": 1}, answer.value == "0"),
            }
            for name, (arguments, grounded) in runs.items():
                calls = [
                    call if call is not listing else ToolCall(name=call.name, arguments=arguments)
                    for call in task.oracle
                    if all(call is not earlier for earlier in listings[:-1])
                ]
                passed, _ = _play(session, task, calls)
                assert passed == grounded, (task.id, name, arguments)
                played[name] += 1
        session.close()
    assert played["golden"] >= 3, played

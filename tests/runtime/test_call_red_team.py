"""A red team of call sequences: hypothesis perturbs each task's golden run, plays it on a real session acting for
the task's person, labels it by a rule of its own read from the real database, and the verifier must agree.

The perturbations (`tests/runtime/perturbations.py`), one to three a run (four in the slow sweep), each anywhere:
an extra read (any read tool, its arguments from the rows of the user, of other people, of catalogs); an extra
write (any write tool, its arguments from those rows or drawn by type); a call dropped; a call moved; a call
duplicated; a refused call (malformed arguments, a golden write aimed at another person's row, a golden write
repeated at once); a golden write with one argument changed (another row of the user's, of someone else's, of a
catalog, another value); a golden read with its arguments changed (a filter set to another row's value, a filter
dropped, a listing cut to one row or started past the first); a golden write with a text argument respelled in
another case; a write and one that undoes it (a golden write made wrong then right; an extra write then the same
action setting the cells back, or another action on the row).

The label. The golden run is played the same way, every table dumped after every call (`call_world.py`). A call is
taken up unless the runtime refused it as malformed (unknown tool, arguments outside the schema): those touch no
row. A perturbed run passes exactly when all of these hold:

(a) its end state equals the golden end state, table by table and cell by cell (rows the run inserted compared
    without their new keys, which depend on the order of inserts);
(b) no write taken up named, in an argument the blueprint does not mark `any_owner`, an existing row whose owner is
    not the user; the owner is found by following the schema's foreign keys up to the person table;
(c) no call changed a cell of a starting row that the golden run never changes, or changed a cell more often than
    the golden run does, even if a later call set it back; no call deleted a starting row the golden run keeps; no
    table got more inserted rows than the golden run inserts in it;
(d) the first call taken up that is a write or a read showing the user's record (a row of the person table, or in
    a fused world of another member's person table, that is theirs) is such a read, shows only the user, and took
    every field of one credential the user holds (the blueprint's `authentication`, among the facts the scenario
    gives the user), each equal to the stored value but for case and punctuation;
(e) the committed writes are the golden ones, in any order, each argument equal to the golden one but for case (a
    respelling that matters changes the end state, which (a) catches); absent and null arguments are the same;
    where the user's script changes their mind about a value, the golden ones less the first write (the value
    taken back, which an agent that confirms first never writes) are right too;
(f) questions: at or after that lookup, a read returned the row the question asks about; a count: a listing of the
    counted rows filtered on the user and on nothing the golden listing does not filter on (so it matches every
    row counted) that showed all it matched (its total).

(c) and (e) are what a run must do beyond reaching the end state: a wrong write corrected later, or a write whose
wrong argument the state does not keep (a cancellation's reason), is still a wrong write. The verdict is
`verify(task.verifier, history, Transcript(calls, answer=the expected answer), vocabulary=None)`: the answer and
the messages are judged elsewhere (`tests/runtime/claims/test_red_team.py`), so the verdict must pass exactly the
runs the label passes.

Left out, as the history cannot show what decides them: tasks whose golden calls add up (`accumulative`, where any
split of the amount is right); questions whose answer names no record; count runs grounded only by a listing that
showed all it matched but started past its first row or filled its page (the history keeps the rows a listing
showed, not how many it matched, so such a listing may as well have been cut).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings

from envforge.ir.tasks import TaskSpec, ToolCall, Transcript
from envforge.runtime.dispatch import LIST_LIMIT_DEFAULT
from envforge.runtime.verify import verify
from tests.conftest import BLUEPRINTS
from tests.runtime.call_world import Step, Tables, World, load_world, play
from tests.runtime.perturbations import PAGING, Perturbed, perturbed_runs

DOMAINS = [path.stem for path in BLUEPRINTS]
Cell = tuple[str, Any, str]
MALFORMED = ("invalid_arguments", "unknown_tool")


def _normal(value: Any) -> Any:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return round(float(value), 6)
    return value


def _end_state(world: World, tables: Tables) -> tuple[dict[str, dict[Any, tuple[Any, ...]]], dict[str, Counter[Any]]]:
    """(every starting row's values; the rows the run inserted, as a multiset of their values without keys)."""
    new = {key for table, rows in tables.items() for key in rows.keys() - world.template[table].keys()}
    kept, added = {}, {}
    for table, rows in tables.items():
        at = world.columns[table].index(world.keys[table])
        kept[table] = {key: tuple(map(_normal, row)) for key, row in rows.items() if key in world.template[table]}
        added[table] = Counter(
            tuple("<new>" if value in new else _normal(value) for index, value in enumerate(row) if index != at)
            for key, row in rows.items()
            if key in new
        )
    return kept, added


def _changes(world: World, step: Step) -> tuple[list[Cell], list[str], list[tuple[str, Any]]]:
    """The cells of starting rows the call changed, the tables it inserted into, the starting rows it deleted."""
    cells: list[Cell] = []
    inserted: list[str] = []
    deleted: list[tuple[str, Any]] = []
    for table, after in step.after.items():
        before = step.before[table]
        if before == after:
            continue
        inserted += [table] * len(after.keys() - before.keys())
        deleted += [(table, key) for key in before.keys() - after.keys() if key in world.template[table]]
        for key in before.keys() & after.keys() & world.template[table].keys():
            if before[key] != after[key]:
                cells += [
                    (table, key, column)
                    for column, old, new in zip(world.columns[table], before[key], after[key], strict=True)
                    if _normal(old) != _normal(new)
                ]
    return cells, inserted, deleted


def _taken_up(step: Step) -> bool:
    return step.ok or step.result.get("error", {}).get("code") not in MALFORMED


def _call(call: ToolCall) -> str:
    """A committed write as (e) compares it."""

    def same(value: Any) -> Any:
        return value.casefold() if isinstance(value, str) else _normal(value)

    return repr((call.name, sorted((name, same(value)) for name, value in call.arguments.items() if value is not None)))


def _committed(world: World, steps: list[Step]) -> Counter[str]:
    return Counter(_call(step.call) for step in steps if step.ok and world.env.tools[step.call.name].kind == "write")


@dataclass(frozen=True)
class Golden:
    end: tuple[dict[str, dict[Any, tuple[Any, ...]]], dict[str, Counter[Any]]]
    cells: Counter[Cell]
    inserted: Counter[str]
    deleted: set[tuple[str, Any]]
    writes: Counter[str]
    steps: list[Step]


def _footprint(world: World, steps: list[Step]) -> tuple[Counter[Cell], Counter[str], set[tuple[str, Any]]]:
    cells: Counter[Cell] = Counter()
    inserted: Counter[str] = Counter()
    deleted: set[tuple[str, Any]] = set()
    for step in steps:
        changed, added, removed = _changes(world, step)
        cells.update(set(changed))
        inserted.update(added)
        deleted.update(removed)
    return cells, inserted, deleted


GOLDEN: dict[tuple[int, str], Golden] = {}


def golden(world: World, task: TaskSpec) -> Golden:
    found = GOLDEN.get((id(world), task.id))
    if found is None:
        steps, _ = play(world, task, list(task.oracle))
        end = steps[-1].after if steps else world.template
        found = Golden(_end_state(world, end), *_footprint(world, steps), _committed(world, steps), steps)
        GOLDEN[(id(world), task.id)] = found
    return found


def _foreign(world: World, task: TaskSpec, steps: list[Step]) -> list[str]:
    """(b): the writes taken up that named a row of someone other than the user."""
    found = []
    for step in steps:
        tool = world.env.tools[step.call.name]
        if tool.kind != "write" or not _taken_up(step):
            continue
        free = {param.name for param in world.env.blueprint.action(tool.name).params if param.any_owner}
        for name, entity in sorted(tool.param_refs.items()):
            key = step.call.arguments.get(name)
            if name in free or entity not in world.chains or key not in step.before[entity]:
                continue
            if world.owner(step.before, entity, key) != task.scenario.person:
                found.append(f"{tool.name} named {entity} {key}, not the user's")
    return found


def _stray(world: World, golden: Golden, steps: list[Step]) -> list[str]:
    """(c): writes outside the golden cells, or more often than the golden run."""
    cells, inserted, deleted = _footprint(world, steps)
    found = [f"changed {cell} {count} times" for cell, count in cells.items() if count > golden.cells[cell]]
    found += [f"inserted {count} {table} rows" for table, count in inserted.items() if count > golden.inserted[table]]
    return found + [f"deleted {row}" for row in sorted(deleted - golden.deleted, key=repr)]


def _plain(value: object) -> str:
    return "".join(char for char in str(value).casefold() if char.isalnum())


def _credentials(world: World, task: TaskSpec) -> list[dict[str, Any]]:
    """The credentials of the blueprint whose every field the scenario gives the user, with their stored values."""
    held = set(task.scenario.known) | set(task.scenario.hidden)
    table = world.person_table
    row = world.template[table][task.scenario.person]
    values = dict(zip(world.columns[table], row, strict=True))
    return [
        {name: values[name] for name in credential}
        for credential in world.env.blueprint.credentials()
        if set(credential) <= held
    ]


def _shown(world: World, step: Step) -> list[dict[str, Any]]:
    result = step.result
    items = result.get("items")
    return list(items) if isinstance(items, list) else [result]


def _people(world: World, step: Step) -> set[str | None]:
    """Whose records of a person table a read showed."""
    table = world.env.tools[step.call.name].entity
    if table not in {world.person_table, *world.env.blueprint.linked_persons}:
        return set()
    key = world.keys[table]
    return {world.owner(step.before, table, row[key]) for row in _shown(world, step)}


def _singled_out(world: World, task: TaskSpec, steps: list[Step]) -> int | str:
    """(d): the index of the lookup that singled the user out, or why none did."""
    person = task.scenario.person
    for index, step in enumerate(steps):
        tool = world.env.tools[step.call.name]
        if not _taken_up(step):
            continue
        if tool.kind == "write":
            return f"{tool.name} was tried before the user was singled out"
        if not step.ok or person not in (people := _people(world, step)):
            continue
        if people != {person}:
            return f"{tool.name} first showed the user among {len(people)} people"
        arguments = step.call.arguments
        if not any(
            all(
                isinstance(arguments.get(name), str | int) and _plain(arguments[name]) == _plain(value)
                for name, value in credential.items()
            )
            for credential in _credentials(world, task)
        ):
            return f"{tool.name} first showed the user without a credential of theirs"
        return index
    return "no lookup singled the user out"


def _grounded(world: World, task: TaskSpec, steps: list[Step]) -> bool | None:
    """(f): a read among `steps` returned the record the question asks about; a count: a listing filtered on the user
    and on nothing the golden listing does not filter on (so it matches every row counted) that showed all it matched.
    None where only a listing the history cannot tell whole decides (see the module docstring)."""
    answer = task.verifier.answer
    assert answer is not None
    reads = [step for step in steps if step.ok and world.env.tools[step.call.name].kind == "read"]
    if answer.field is not None:
        entity = answer.field.split(".")[0]
        return any(
            world.env.tools[step.call.name].entity == entity
            and answer.key in {row[world.keys[entity]] for row in _shown(world, step)}
            for step in reads
        )
    assert answer.counted is not None
    entity, column = answer.counted.split(".")
    asked = _counted_filters(world, task, golden(world, task).steps)
    whole = [
        step
        for step in reads
        if world.env.tools[step.call.name].entity == entity
        and _plain(step.call.arguments.get(column, "")) == _plain(task.scenario.person)
        and all(
            name in asked and _plain(value) == _plain(asked[name])
            for name, value in step.call.arguments.items()
            if name not in PAGING
        )
        and len(_shown(world, step)) == step.result.get("total")
    ]
    shown_whole = [
        step
        for step in whole
        if not step.call.arguments.get("offset")
        and len(_shown(world, step)) < step.call.arguments.get("limit", LIST_LIMIT_DEFAULT)
    ]
    return True if shown_whole else None if whole else False


def _counted_filters(world: World, task: TaskSpec, steps: list[Step]) -> dict[str, Any]:
    """The filters of the golden listing of the counted rows: the rows a count asks about are those it matches. The
    last such listing: a question asked after a write comes after the write's own lookups, which may list the same
    rows unfiltered."""
    answer = task.verifier.answer
    assert answer is not None and answer.counted is not None
    entity, column = answer.counted.split(".")
    return next(
        {name: value for name, value in step.call.arguments.items() if name not in PAGING}
        for step in reversed(steps)
        if world.env.tools[step.call.name].entity == entity and step.call.arguments.get(column) == task.scenario.person
    )


def _right_writes(world: World, task: TaskSpec, reference: Golden) -> list[Counter[str]]:
    """(e)'s golden writes; where the user changes their mind, also those less the first, the value taken back."""
    if not any(reaction.changes for reaction in task.scenario.script):
        return [reference.writes]
    first = next(call for call in task.oracle if world.env.tools[call.name].kind == "write")
    return [reference.writes, reference.writes - Counter([_call(first)])]


def label(world: World, task: TaskSpec, steps: list[Step]) -> list[str] | None:
    """Why the run is not the task done, by the rule of this module's docstring; empty when it is, None when the
    rule leaves the run out."""
    reference = golden(world, task)
    end = steps[-1].after if steps else world.template
    problems = [] if _end_state(world, end) == reference.end else ["the end state is not the golden one"]
    problems += _foreign(world, task, steps)
    problems += _stray(world, reference, steps)
    if _committed(world, steps) not in _right_writes(world, task, reference):
        problems.append("the committed writes are not the golden ones")
    singled = _singled_out(world, task, steps)
    if isinstance(singled, str):
        problems.append(singled)
    elif task.verifier.answer is not None:
        grounded = _grounded(world, task, steps[singled:])
        if grounded is None:
            return None
        if not grounded:
            problems.append("no read after the user was singled out returned the record asked about")
    return problems


def decidable(task: TaskSpec) -> bool:
    """Whether the label can judge the task (see the module docstring)."""
    if any(call.accumulative for call in task.verifier.expected_calls):
        return False
    answer = task.verifier.answer
    return answer is None or (answer.field is not None and answer.key is not None) or answer.counted is not None


def judge(world: World, run: Perturbed) -> tuple[list[str] | None, bool, list[str]]:
    """Play the run; (the label's problems or None, whether the verdict passed it, the verdict's reasons)."""
    steps, history = play(world, run.task, run.calls)
    problems = label(world, run.task, steps)
    transcript = Transcript(calls=run.calls, answer=run.task.expected_answer)
    verdict = verify(run.task.verifier, history, transcript, vocabulary=None)
    return problems, verdict.passed, verdict.reasons


def _check(world: World, run: Perturbed) -> None:
    problems, passed, reasons = judge(world, run)
    assume(problems is not None)
    assert passed == (not problems), (run.classes, run.task.id, run.calls, problems, reasons)


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize(
    ("examples", "most"),
    [
        pytest.param(250, 3, id="250"),
        # 7,000 runs in all, in about two minutes: `pytest -m slow tests/runtime/test_call_red_team.py`.
        pytest.param(1000, 4, id="1000", marks=pytest.mark.slow),
    ],
)
def test_the_verdict_passes_exactly_the_perturbed_runs_the_database_says_did_the_task(
    packages: dict[str, Path], domain: str, examples: int, most: int
) -> None:
    world = load_world(packages[domain])

    @settings(max_examples=examples, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(perturbed_runs(world, decidable, most))
    def agrees(run: Perturbed) -> None:
        _check(world, run)

    agrees()

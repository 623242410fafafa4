"""Verifiers as readable Python files, runnable with only `envforge.runtime` installed."""

from __future__ import annotations

import pprint
import textwrap

from envforge.ir.tasks import TaskSpec


def _literal(value: object) -> str:
    return pprint.pformat(value, width=10_000, sort_dicts=True)


def render_verifier(task: TaskSpec) -> str:
    """The source of `verifiers/<task id>.py`: the golden diff as data and a `verify` function."""
    changes = ",\n".join(
        f"RowChange(entity={change.entity!r}, key={change.key!r}, before={_literal(change.before)}, after={_literal(change.after)})"
        for change in task.verifier.expected_changes
    )
    instruction = "\n".join(textwrap.wrap(task.instruction, 96))
    answer_line = (
        f"and its final answer must contain {task.verifier.answer!r}"
        if task.verifier.answer is not None
        else "and it needs no particular answer"
    )
    body = textwrap.indent(changes, " " * 8)
    return f'''"""Verifier of task {task.id} ({task.kind}).

{instruction}

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), {answer_line}.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id={task.id!r},
    expected_changes=[
{body}
    ],
    answer={task.verifier.answer!r},
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)
'''

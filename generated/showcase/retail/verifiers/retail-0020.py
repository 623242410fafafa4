"""Verifier of task retail-0020 (read).

Hello, I hope you can help me. This is Aaron Brennan, my email is pholland@example.net. I'd like
to know what the postal code of my address (city: South Jeremy) is.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and its final answer must contain '01190'.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0020',
    expected_changes=[

    ],
    answer='01190',
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

"""Verifier of task retail-0011 (read).

Hello, I hope you can help me. This is Casey Morrison, my email is edwin86@example.net. What is
the refunded total of my payment (method: paypal)?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and its final answer must contain '0.00'.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0011',
    expected_changes=[

    ],
    answer='0.00',
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

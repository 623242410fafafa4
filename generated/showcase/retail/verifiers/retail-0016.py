"""Verifier of task retail-0016 (read).

Hi there. This is Daniel Martinez, my email is annhanson@example.com. I'd like to know what the
refunded total of my payment (amount: 249.98) is.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and its final answer must contain '0.00'.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0016',
    expected_changes=[

    ],
    answer='0.00',
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

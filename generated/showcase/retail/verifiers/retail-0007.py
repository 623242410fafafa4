"""Verifier of task retail-0007 (read).

Hi there, thank you for your help. This is Jennifer Rivera, my email is
cassandrajones@example.net. Could you tell me how many of my orders have status delivered?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and its final answer must contain '1'.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0007',
    expected_changes=[

    ],
    answer='1',
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

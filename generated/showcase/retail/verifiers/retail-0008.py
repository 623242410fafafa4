"""Verifier of task retail-0008 (write).

Hi there, thank you for your help. This is Elizabeth Davis, my email is
michaelschultz@example.net. I'd like you to cancel my order (placed on: 2026-01-27) with reason:
changed mind.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0008',
    expected_changes=[
        RowChange(entity='order', key='ORD-780722', before={'status': 'processing'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-747012', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 169.86, 'status': 'refunded'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 169.86, 'created_on': '2026-03-16', 'payment_id': 'PAY-747012', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

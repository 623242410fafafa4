"""Verifier of task retail-0004 (write).

Hello, I hope you can help me. This is Casey Morrison, my email is edwin86@example.net. Can you
cancel my order (placed on: 2026-02-22) with reason: ordered by mistake?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0004',
    expected_changes=[
        RowChange(entity='order', key='ORD-556864', before={'status': 'pending'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-159394', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 560.1, 'status': 'refunded'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 560.1, 'created_on': '2026-03-16', 'payment_id': 'PAY-159394', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

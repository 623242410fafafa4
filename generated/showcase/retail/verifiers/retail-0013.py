"""Verifier of task retail-0013 (write).

Hello. This is Devon Weber, my email is nealjessica@example.org. I want to cancel my order
(placed on: 2026-02-06) with reason: ordered by mistake.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0013',
    expected_changes=[
        RowChange(entity='order', key='ORD-286213', before={'status': 'pending'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-583172', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 532.27, 'status': 'refunded'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 532.27, 'created_on': '2026-03-16', 'payment_id': 'PAY-583172', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

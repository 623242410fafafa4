"""Verifier of task retail-0009 (write).

Hi there. This is Daniel Martinez, my email is annhanson@example.com. Please cancel my order
(placed on: 2026-02-18) with reason: other.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0009',
    expected_changes=[
        RowChange(entity='order', key='ORD-535550', before={'status': 'pending'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-659773', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 408.15, 'status': 'refunded'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 408.15, 'created_on': '2026-03-16', 'payment_id': 'PAY-659773', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

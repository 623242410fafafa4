"""Verifier of task retail-0019 (multi_write).

Good morning, could you help me please? This is Jennifer Rivera, my email is
cassandrajones@example.net. I want to cancel my order (placed on: 2026-01-27) with reason:
other. Also, request return for my order item (quantity: 3) with reason: damaged.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0019',
    expected_changes=[
        RowChange(entity='order', key='ORD-733386', before={'status': 'processing'}, after={'status': 'cancelled'}),
        RowChange(entity='order_item', key='ITM-618759', before={'status': 'ordered'}, after={'status': 'return_requested'}),
        RowChange(entity='payment', key='PAY-449355', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 588.97, 'status': 'refunded'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 588.97, 'created_on': '2026-03-16', 'payment_id': 'PAY-449355', 'reason': 'order_cancelled'}),
        RowChange(entity='return_request', key=None, before=None, after={'created_on': '2026-03-16', 'item_id': 'ITM-618759', 'reason': 'damaged', 'status': 'requested'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

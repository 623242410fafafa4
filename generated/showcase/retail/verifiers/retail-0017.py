"""Verifier of task retail-0017 (write).

Hello, I hope you can help me. This is Jennifer Rivera, my email is cassandrajones@example.net.
Can you cancel my order item (item id: ITM-378586)?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0017',
    expected_changes=[
        RowChange(entity='order', key='ORD-733386', before={'total': 588.97}, after={'total': 560.01}),
        RowChange(entity='order_item', key='ITM-378586', before={'status': 'ordered'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-449355', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 28.96, 'status': 'partially_refunded'}),
        RowChange(entity='product', key='PRD-295492', before={'stock': 104}, after={'stock': 106}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 28.96, 'created_on': '2026-03-16', 'payment_id': 'PAY-449355', 'reason': 'item_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

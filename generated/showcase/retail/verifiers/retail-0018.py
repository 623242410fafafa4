"""Verifier of task retail-0018 (write).

Good morning, could you help me please? This is Casey Morrison, my email is edwin86@example.net.
Can you cancel my order item (product: Bath Mat, quantity: 3)?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0018',
    expected_changes=[
        RowChange(entity='order', key='ORD-556864', before={'total': 560.1}, after={'total': 516.66}),
        RowChange(entity='order_item', key='ITM-249351', before={'status': 'ordered'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-159394', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 43.44, 'status': 'partially_refunded'}),
        RowChange(entity='product', key='PRD-295492', before={'stock': 104}, after={'stock': 107}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 43.44, 'created_on': '2026-03-16', 'payment_id': 'PAY-159394', 'reason': 'item_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

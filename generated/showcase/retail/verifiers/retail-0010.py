"""Verifier of task retail-0010 (multi_write).

Hi there. This is Devon Weber, my email is nealjessica@example.org. Can you cancel my order item
(product: Ceramic Mug). Also, change item quantity for my order item (unit price: 155.82) with
quantity: 2?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0010',
    expected_changes=[
        RowChange(entity='order', key='ORD-286213', before={'total': 532.27}, after={'total': 32.51}),
        RowChange(entity='order_item', key='ITM-263472', before={'status': 'ordered'}, after={'status': 'cancelled'}),
        RowChange(entity='order_item', key='ITM-314526', before={'quantity': 3}, after={'quantity': 2}),
        RowChange(entity='payment', key='PAY-583172', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 343.94, 'status': 'partially_refunded'}),
        RowChange(entity='product', key='PRD-511291', before={'stock': 102}, after={'stock': 103}),
        RowChange(entity='product', key='PRD-638385', before={'stock': 101}, after={'stock': 103}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 343.94, 'created_on': '2026-03-16', 'payment_id': 'PAY-583172', 'reason': 'item_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

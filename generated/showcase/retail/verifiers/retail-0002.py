"""Verifier of task retail-0002 (multi_write).

Hi there. This is Devon Weber, my email is nealjessica@example.org. Can you cancel my order
(placed on: 2026-02-06) with reason: ordered by mistake. Also, add address for my account with
city: West Petermouth, label: other, postal code: 30897, street: 6737 Fletcher Hollow?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0002',
    expected_changes=[
        RowChange(entity='order', key='ORD-286213', before={'status': 'pending'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-583172', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 532.27, 'status': 'refunded'}),
        RowChange(entity='address', key=None, before=None, after={'city': 'West Petermouth', 'customer_id': 'CUS-232493', 'label': 'other', 'postal_code': '30897', 'street': '6737 Fletcher Hollow'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 532.27, 'created_on': '2026-03-16', 'payment_id': 'PAY-583172', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

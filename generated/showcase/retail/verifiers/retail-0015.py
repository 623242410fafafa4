"""Verifier of task retail-0015 (multi_write).

Hello, I hope you can help me. This is Jennifer Rivera, my email is cassandrajones@example.net.
I want to cancel my order (placed on: 2026-01-27) with reason: other. Also, add address for my
account with city: Melissachester, label: work, postal code: 71628, street: 17975 Kathy Spurs
Suite 004.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0015',
    expected_changes=[
        RowChange(entity='order', key='ORD-733386', before={'status': 'processing'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-449355', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 588.97, 'status': 'refunded'}),
        RowChange(entity='address', key=None, before=None, after={'city': 'Melissachester', 'customer_id': 'CUS-245347', 'label': 'work', 'postal_code': '71628', 'street': '17975 Kathy Spurs Suite 004'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 588.97, 'created_on': '2026-03-16', 'payment_id': 'PAY-449355', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

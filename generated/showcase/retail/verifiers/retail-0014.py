"""Verifier of task retail-0014 (write).

This is Dennis Brown, my email is jeannehernandez@example.com. Can you cancel my order (placed
on: 2026-01-30) with reason: other?

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0014',
    expected_changes=[
        RowChange(entity='order', key='ORD-730875', before={'status': 'pending'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-317974', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 598.73, 'status': 'refunded'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 598.73, 'created_on': '2026-03-16', 'payment_id': 'PAY-317974', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

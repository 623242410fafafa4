"""Verifier of task retail-0012 (write).

Hello, I hope you can help me. This is Aaron Brennan, my email is pholland@example.net. I'd like
you to cancel my order (placed on: 2026-02-09) with reason: ordered by mistake.

A run passes when the final state differs from the initial one by exactly the changes below
(no more, no fewer), and it needs no particular answer.
"""

from envforge.ir.tasks import RowChange, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec(
    task_id='retail-0012',
    expected_changes=[
        RowChange(entity='order', key='ORD-597294', before={'status': 'processing'}, after={'status': 'cancelled'}),
        RowChange(entity='payment', key='PAY-263179', before={'refunded_total': 0.0, 'status': 'captured'}, after={'refunded_total': 208.21, 'status': 'refunded'}),
        RowChange(entity='refund', key=None, before=None, after={'amount': 208.21, 'created_on': '2026-03-16', 'payment_id': 'PAY-263179', 'reason': 'order_cancelled'})
    ],
    answer=None,
)


def verify(initial: bytes, final: bytes, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run made exactly the expected changes (and gave the answer)."""
    return judge(SPEC, initial, final, transcript)

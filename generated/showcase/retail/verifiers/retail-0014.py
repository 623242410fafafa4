"""Verifier of task retail-0014 (write).

This is Dennis Brown, my email is jeannehernandez@example.com. Can you cancel my order (placed
on: 2026-03-14) with reason: other?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-450643 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'order_id': 'ORD-730875', 'reason': 'other'}, 'tool': 'cancel_order'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'pending'},
                           'entity': 'order',
                           'key': 'ORD-730875'},
                          {'after': {'refunded_total': 623.28, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-317974'},
                          {'after': {'amount': 623.28,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-317974',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-730875': {'status': 1}},
                               'payment': {'PAY-317974': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-450643',
                  'stated': ['Brown', 'Dennis', 'jeannehernandez@example.com']},
     'task_id': 'retail-0014'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

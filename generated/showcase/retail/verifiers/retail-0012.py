"""Verifier of task retail-0012 (write).

Hello, I hope you can help me. This is Aaron Brennan, my email is pholland@example.net. I'd like
you to cancel my order (placed on: 2026-03-11) with reason: ordered by mistake.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-471501 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'order_id': 'ORD-597294', 'reason': 'ordered_by_mistake'},
                         'tool': 'cancel_order'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'processing'},
                           'entity': 'order',
                           'key': 'ORD-597294'},
                          {'after': {'refunded_total': 361.54, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-263179'},
                          {'after': {'amount': 361.54,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-263179',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-597294': {'status': 1}},
                               'payment': {'PAY-263179': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-471501',
                  'stated': ['+1-995-427-5237x32475', 'Aaron', 'Brennan', 'pholland@example.net']},
     'task_id': 'retail-0012'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

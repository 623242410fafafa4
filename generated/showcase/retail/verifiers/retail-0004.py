"""Verifier of task retail-0004 (write).

Hello, I hope you can help me. This is Casey Morrison, my email is edwin86@example.net. Can you
cancel my order (ship street: 23838 Wood Gardens Apt. 611) with reason: ordered by mistake?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-543263 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'order_id': 'ORD-556864', 'reason': 'ordered_by_mistake'},
                         'tool': 'cancel_order'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'pending'},
                           'entity': 'order',
                           'key': 'ORD-556864'},
                          {'after': {'refunded_total': 317.54, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-159394'},
                          {'after': {'amount': 317.54,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-159394',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-556864': {'status': 1}},
                               'payment': {'PAY-159394': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-543263',
                  'stated': ['001-851-747-6565x23891', 'Casey', 'Morrison', 'edwin86@example.net']},
     'task_id': 'retail-0004'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

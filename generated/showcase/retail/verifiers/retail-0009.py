"""Verifier of task retail-0009 (write).

Hi there. This is Daniel Martinez, my email is annhanson@example.com. Please cancel my order
(placed on: 2026-03-11) with reason: other.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-285018 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'order_id': 'ORD-535550', 'reason': 'other'}, 'tool': 'cancel_order'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'pending'},
                           'entity': 'order',
                           'key': 'ORD-535550'},
                          {'after': {'refunded_total': 754.14, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-659773'},
                          {'after': {'amount': 754.14,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-659773',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-535550': {'status': 1}},
                               'payment': {'PAY-659773': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-285018',
                  'stated': ['792-907-1243', 'Daniel', 'Martinez', 'annhanson@example.com']},
     'task_id': 'retail-0009'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

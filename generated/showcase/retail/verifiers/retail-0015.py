"""Verifier of task retail-0015 (multi_write).

Hi. This is Devon Weber, my email is nealjessica@example.org. I want to cancel my order (placed
on: 2026-03-11) with reason: ordered by mistake. Also, add address for my account with city:
West Petermouth, label: other, postal code: 30897, street: 6737 Fletcher Hollow.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-232493 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'order_id': 'ORD-286213', 'reason': 'ordered_by_mistake'},
                         'tool': 'cancel_order'},
                        {'arguments': {'city': 'West Petermouth',
                                       'customer_id': 'CUS-232493',
                                       'label': 'other',
                                       'postal_code': '30897',
                                       'street': '6737 Fletcher Hollow'},
                         'tool': 'add_address'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'pending'},
                           'entity': 'order',
                           'key': 'ORD-286213'},
                          {'after': {'refunded_total': 811.4, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-583172'},
                          {'after': {'city': 'West Petermouth',
                                     'customer_id': 'CUS-232493',
                                     'label': 'other',
                                     'postal_code': '30897',
                                     'street': '6737 Fletcher Hollow'},
                           'before': None,
                           'entity': 'address',
                           'key': None},
                          {'after': {'amount': 811.4,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-583172',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'address': 1, 'refund': 1},
                   'updates': {'order': {'ORD-286213': {'status': 1}},
                               'payment': {'PAY-583172': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-232493',
                  'stated': ['(961)611-3342x250', 'Devon', 'Weber', 'nealjessica@example.org']},
     'task_id': 'retail-0015'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

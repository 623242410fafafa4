"""Verifier of task retail-0018 (multi_write).

Hello, I hope you can help me. This is Aaron Brennan, and my phone is +1-995-427-5237x32475.
While you're looking at my order placed on 11 March, update the shipping address of that order,
using my address in Heatherburgh and also cancel item ITM-283120.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-471501 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'address_id': 'ADR-375923', 'order_id': 'ORD-597294'},
                         'tool': 'update_shipping_address'},
                        {'arguments': {'item_id': 'ITM-283120'}, 'tool': 'cancel_order_item'}],
     'expected_changes': [{'after': {'ship_city': 'Heatherburgh',
                                     'ship_postal_code': '51413',
                                     'ship_street': '30646 Melinda Creek Suite 229',
                                     'total': 337.58},
                           'before': {'ship_city': 'South Shawn',
                                      'ship_postal_code': '11372',
                                      'ship_street': '4508 Jennifer Locks Apt. 250',
                                      'total': 361.54},
                           'entity': 'order',
                           'key': 'ORD-597294'},
                          {'after': {'status': 'cancelled'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-283120'},
                          {'after': {'refunded_total': 23.96, 'status': 'partially_refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-263179'},
                          {'after': {'stock': 42},
                           'before': {'stock': 40},
                           'entity': 'product',
                           'key': 'PRD-765113'},
                          {'after': {'amount': 23.96,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-263179',
                                     'reason': 'item_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-597294': {'ship_city': 1,
                                                        'ship_postal_code': 1,
                                                        'ship_street': 1,
                                                        'total': 1}},
                               'order_item': {'ITM-283120': {'status': 1}},
                               'payment': {'PAY-263179': {'refunded_total': 1, 'status': 1}},
                               'product': {'PRD-765113': {'stock': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-471501',
                  'stated': ['+1-995-427-5237x32475', 'Aaron', 'Brennan']},
     'task_id': 'retail-0018'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

"""Verifier of task retail-0007 (multi_write).

I'm Jennifer Rivera, and my email is cassandrajones@example.net. I'm writing because I want you
to cancel the item for my order placed in mid March. I found I already have one at home.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-245347 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-378586'}, 'tool': 'cancel_order_item'},
                        {'arguments': {'address_id': 'ADR-118601', 'order_id': 'ORD-733386'},
                         'tool': 'update_shipping_address'}],
     'expected_changes': [{'after': {'ship_city': 'Muellerborough',
                                     'ship_postal_code': '77631',
                                     'ship_street': '48322 Amanda Fall Suite 193',
                                     'total': 0.0},
                           'before': {'ship_city': 'New Stacie',
                                      'ship_postal_code': '52776',
                                      'ship_street': '725 Julie Meadow',
                                      'total': 28.96},
                           'entity': 'order',
                           'key': 'ORD-733386'},
                          {'after': {'status': 'cancelled'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-378586'},
                          {'after': {'refunded_total': 28.96, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-449355'},
                          {'after': {'stock': 106},
                           'before': {'stock': 104},
                           'entity': 'product',
                           'key': 'PRD-295492'},
                          {'after': {'amount': 28.96,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-449355',
                                     'reason': 'item_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-733386': {'ship_city': 1,
                                                        'ship_postal_code': 1,
                                                        'ship_street': 1,
                                                        'total': 1}},
                               'order_item': {'ITM-378586': {'status': 1}},
                               'payment': {'PAY-449355': {'refunded_total': 1, 'status': 1}},
                               'product': {'PRD-295492': {'stock': 1}}}},
     'identity': {'credentials': [{'email': 'cassandrajones@example.net'}],
                  'entity': 'customer',
                  'person': 'CUS-245347',
                  'stated': ['Jennifer', 'Rivera', 'cassandrajones@example.net']},
     'task_id': 'retail-0007'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

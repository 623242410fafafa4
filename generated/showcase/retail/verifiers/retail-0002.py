"""Verifier of task retail-0002 (multi_write).

Hi. This is Scott Boyd. Could you update the shipping address of my order to my address for me?
I won't be at the old address when it arrives.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-129338 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'address_id': 'ADR-691649', 'order_id': 'ORD-697122'},
                         'tool': 'update_shipping_address'},
                        {'arguments': {'item_id': 'ITM-740184'}, 'tool': 'cancel_order_item'}],
     'expected_changes': [{'after': {'ship_city': 'Eriktown',
                                     'ship_postal_code': '49983',
                                     'ship_street': '1646 Justin Orchard',
                                     'total': 0.0},
                           'before': {'ship_city': 'Port Jay',
                                      'ship_postal_code': '09071',
                                      'ship_street': '99109 Andrew Knoll Apt. 244',
                                      'total': 240.0},
                           'entity': 'order',
                           'key': 'ORD-697122'},
                          {'after': {'status': 'cancelled'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-740184'},
                          {'after': {'refunded_total': 240.0, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-747012'},
                          {'after': {'stock': 72},
                           'before': {'stock': 70},
                           'entity': 'product',
                           'key': 'PRD-300525'},
                          {'after': {'amount': 240.0,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-747012',
                                     'reason': 'item_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-697122': {'ship_city': 1,
                                                        'ship_postal_code': 1,
                                                        'ship_street': 1,
                                                        'total': 1}},
                               'order_item': {'ITM-740184': {'status': 1}},
                               'payment': {'PAY-747012': {'refunded_total': 1, 'status': 1}},
                               'product': {'PRD-300525': {'stock': 1}}}},
     'identity': {'credentials': [{'email': 'rfrank@example.com'}],
                  'entity': 'customer',
                  'person': 'CUS-129338',
                  'stated': ['Boyd', 'Scott', 'rfrank@example.com']},
     'task_id': 'retail-0002'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

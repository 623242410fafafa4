"""Verifier of task retail-0012 (multi_write).

This is Daniel Martinez, and my email is annhanson@example.com. About my order placed on March
11: change the quantity of item ITM-149081, and cancel item ITM-232217. I'll give you the
details you need.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-285018 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-149081', 'quantity': 2}, 'tool': 'change_item_quantity'},
                        {'arguments': {'item_id': 'ITM-232217'}, 'tool': 'cancel_order_item'}],
     'expected_changes': [{'after': {'total': 343.94},
                           'before': {'total': 754.14},
                           'entity': 'order',
                           'key': 'ORD-535550'},
                          {'after': {'quantity': 2},
                           'before': {'quantity': 3},
                           'entity': 'order_item',
                           'key': 'ITM-149081'},
                          {'after': {'status': 'cancelled'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-232217'},
                          {'after': {'refunded_total': 238.23, 'status': 'partially_refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-659773'},
                          {'after': {'stock': 3},
                           'before': {'stock': 0},
                           'entity': 'product',
                           'key': 'PRD-473352'},
                          {'after': {'stock': 102},
                           'before': {'stock': 101},
                           'entity': 'product',
                           'key': 'PRD-638385'},
                          {'after': {'amount': 238.23,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-659773',
                                     'reason': 'item_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-535550': {'total': 2}},
                               'order_item': {'ITM-149081': {'quantity': 1}, 'ITM-232217': {'status': 1}},
                               'payment': {'PAY-659773': {'refunded_total': 1, 'status': 1}},
                               'product': {'PRD-473352': {'stock': 1}, 'PRD-638385': {'stock': 1}}}},
     'identity': {'credentials': [{'email': 'annhanson@example.com'}],
                  'entity': 'customer',
                  'person': 'CUS-285018',
                  'stated': ['Daniel', 'Martinez', 'annhanson@example.com']},
     'task_id': 'retail-0012'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

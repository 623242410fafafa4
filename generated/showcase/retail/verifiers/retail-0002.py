"""Verifier of task retail-0002 (multi_write).

Hi there, thank you for your help. My name is Devon Weber. I'm writing because I want you to
change the quantity of the Cast Iron Pan from my order placed on March 11. I got the number
wrong when I ordered. I want 2 of them in total.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-232493 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-314526', 'quantity': 2}, 'tool': 'change_item_quantity'},
                        {'arguments': {'item_id': 'ITM-263472'}, 'tool': 'cancel_order_item'}],
     'expected_changes': [{'after': {'total': 311.64},
                           'before': {'total': 811.4},
                           'entity': 'order',
                           'key': 'ORD-286213'},
                          {'after': {'status': 'cancelled'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-263472'},
                          {'after': {'quantity': 2},
                           'before': {'quantity': 3},
                           'entity': 'order_item',
                           'key': 'ITM-314526'},
                          {'after': {'refunded_total': 343.94, 'status': 'partially_refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-583172'},
                          {'after': {'stock': 103},
                           'before': {'stock': 102},
                           'entity': 'product',
                           'key': 'PRD-511291'},
                          {'after': {'stock': 103},
                           'before': {'stock': 101},
                           'entity': 'product',
                           'key': 'PRD-638385'},
                          {'after': {'amount': 343.94,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-583172',
                                     'reason': 'item_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-286213': {'total': 2}},
                               'order_item': {'ITM-263472': {'status': 1}, 'ITM-314526': {'quantity': 1}},
                               'payment': {'PAY-583172': {'refunded_total': 1, 'status': 1}},
                               'product': {'PRD-511291': {'stock': 1}, 'PRD-638385': {'stock': 1}}}},
     'identity': {'credentials': [{'first_name': 'Devon', 'last_name': 'Weber', 'phone': '(550)505-6111'}],
                  'entity': 'customer',
                  'person': 'CUS-232493',
                  'stated': ['(550)505-6111', 'Devon', 'Weber']},
     'task_id': 'retail-0002'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

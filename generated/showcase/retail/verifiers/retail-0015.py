"""Verifier of task retail-0015 (write).

Hello, I hope you can help me. My name is Devon Weber. I was hoping you could cancel the Framed
Print from my pending order. I don't need that one after all. And while you're there, please
cancel my processing order. I ordered it by mistake.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-232493 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done, each refused part said not done and why.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-262821'}, 'tool': 'cancel_order_item'}],
     'expected_changes': [{'after': {'total': 52.0},
                           'before': {'total': 217.0},
                           'entity': 'order',
                           'key': 'ORD-286213'},
                          {'after': {'status': 'cancelled'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-262821'},
                          {'after': {'refunded_total': 165.0, 'status': 'partially_refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-575423'},
                          {'after': {'stock': 7},
                           'before': {'stock': 4},
                           'entity': 'product',
                           'key': 'PRD-652504'},
                          {'after': {'amount': 165.0,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-575423',
                                     'reason': 'item_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-286213': {'total': 1}},
                               'order_item': {'ITM-262821': {'status': 1}},
                               'payment': {'PAY-575423': {'refunded_total': 1, 'status': 1}},
                               'product': {'PRD-652504': {'stock': 1}}}},
     'identity': {'credentials': [{'first_name': 'Devon', 'last_name': 'Weber', 'phone': '(550)505-6111'}],
                  'entity': 'customer',
                  'person': 'CUS-232493',
                  'stated': ['(550)505-6111', 'Devon', 'Weber']},
     'refused': ['cancel_order'],
     'refused_because': ['A pending order, or a line of one, can be cancelled; once an order is processing, only '
                         'within 2 days of placing it, since the warehouse has started on it after that.'],
     'task_id': 'retail-0015'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

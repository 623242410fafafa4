"""Verifier of task retail-0020 (write).

Quick one. This is Daniel Martinez. Please refund the return request for the item for my order
placed on January 19. The item is already on its way back to you. And while you're there, could
you also request a return for the Jute Rug from my order placed on January 17. It arrived
damaged.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-347774 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done, each refused part said not done and why.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'return_id': 'RET-130564'}, 'tool': 'refund_return'}],
     'expected_changes': [{'after': {'status': 'returned'},
                           'before': {'status': 'return_requested'},
                           'entity': 'order_item',
                           'key': 'ITM-734595'},
                          {'after': {'refunded_total': 24.0, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-175760'},
                          {'after': {'status': 'refunded'},
                           'before': {'status': 'requested'},
                           'entity': 'return_request',
                           'key': 'RET-130564'},
                          {'after': {'amount': 24.0,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-175760',
                                     'reason': 'item_returned'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order_item': {'ITM-734595': {'status': 1}},
                               'payment': {'PAY-175760': {'refunded_total': 1, 'status': 1}},
                               'return_request': {'RET-130564': {'status': 1}}}},
     'identity': {'credentials': [{'email': 'annhanson@example.com'}],
                  'entity': 'customer',
                  'person': 'CUS-347774',
                  'stated': ['Daniel', 'Martinez', 'annhanson@example.com']},
     'refused': ['request_return'],
     'refused_because': ['Items can be returned within 30 days of delivery; gold members have 60 days.'],
     'task_id': 'retail-0020'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

"""Verifier of task retail-0001 (write).

Need help. This is Jennifer Rivera. I was hoping you could cancel my processing order. Ask me
for whatever details you need.

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
    {'expected_calls': [{'arguments': {'order_id': 'ORD-713013', 'reason': 'ordered_by_mistake'},
                         'tool': 'cancel_order'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'processing'},
                           'entity': 'order',
                           'key': 'ORD-713013'},
                          {'after': {'refunded_total': 38.0, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-550315'},
                          {'after': {'amount': 38.0,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-550315',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-713013': {'status': 1}},
                               'payment': {'PAY-550315': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'credentials': [{'email': 'cassandrajones@example.net'}],
                  'entity': 'customer',
                  'person': 'CUS-245347',
                  'stated': ['Jennifer', 'Rivera', 'cassandrajones@example.net']},
     'task_id': 'retail-0001'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

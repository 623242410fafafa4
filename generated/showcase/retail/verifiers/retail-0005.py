"""Verifier of task retail-0005 (write).

Hi. This is Maria Martinez, my email is molinagregory@example.com. I want to cancel my order
(placed on: 2026-03-15) with reason: changed mind.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-347774 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'order_id': 'ORD-754892', 'reason': 'changed_mind'},
                         'tool': 'cancel_order'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'processing'},
                           'entity': 'order',
                           'key': 'ORD-754892'},
                          {'after': {'refunded_total': 1048.72, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-779115'},
                          {'after': {'amount': 1048.72,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-779115',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-754892': {'status': 1}},
                               'payment': {'PAY-779115': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-347774',
                  'stated': ['535-889-0440', 'Maria', 'Martinez', 'molinagregory@example.com']},
     'task_id': 'retail-0005'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

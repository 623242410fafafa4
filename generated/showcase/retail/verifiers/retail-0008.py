"""Verifier of task retail-0008 (write).

Hi there, thank you for your help. This is Elizabeth Davis, my email is
michaelschultz@example.net. I'd like you to cancel my order (status: processing) with reason:
changed mind.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-477848 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'order_id': 'ORD-780722', 'reason': 'changed_mind'},
                         'tool': 'cancel_order'}],
     'expected_changes': [{'after': {'status': 'cancelled'},
                           'before': {'status': 'processing'},
                           'entity': 'order',
                           'key': 'ORD-780722'},
                          {'after': {'refunded_total': 204.96, 'status': 'refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-747012'},
                          {'after': {'amount': 204.96,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-747012',
                                     'reason': 'order_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-780722': {'status': 1}},
                               'payment': {'PAY-747012': {'refunded_total': 1, 'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-477848',
                  'stated': ['383.667.4455', 'Davis', 'Elizabeth', 'michaelschultz@example.net']},
     'task_id': 'retail-0008'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

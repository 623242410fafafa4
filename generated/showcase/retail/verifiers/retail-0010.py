"""Verifier of task retail-0010 (multi_write).

Need help. This is Heather Stephens, my email is csmith@example.com. Can you request return for
my order item (product: Ceramic Mug) with reason: wrong item. Also, update email for my account
with email: jfisher@example.com?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-100725 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-121901', 'reason': 'wrong_item'},
                         'tool': 'request_return'},
                        {'arguments': {'customer_id': 'CUS-100725', 'email': 'jfisher@example.com'},
                         'tool': 'update_email'}],
     'expected_changes': [{'after': {'email': 'jfisher@example.com'},
                           'before': {'email': 'csmith@example.com'},
                           'entity': 'customer',
                           'key': 'CUS-100725'},
                          {'after': {'status': 'return_requested'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-121901'},
                          {'after': {'created_on': '2026-03-16',
                                     'item_id': 'ITM-121901',
                                     'reason': 'wrong_item',
                                     'status': 'requested'},
                           'before': None,
                           'entity': 'return_request',
                           'key': None}],
     'footprint': {'inserts': {'return_request': 1},
                   'updates': {'customer': {'CUS-100725': {'email': 1}},
                               'order_item': {'ITM-121901': {'status': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-100725',
                  'stated': ['Heather', 'Stephens', 'csmith@example.com']},
     'task_id': 'retail-0010'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

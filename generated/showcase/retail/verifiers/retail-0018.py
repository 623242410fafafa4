"""Verifier of task retail-0018 (write).

Good morning, could you help me please? This is Casey Morrison, my email is edwin86@example.net.
Can you cancel my order item (product: Bath Mat, quantity: 3)?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-543263 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-249351'}, 'tool': 'cancel_order_item'}],
     'expected_changes': [{'after': {'total': 274.1},
                           'before': {'total': 317.54},
                           'entity': 'order',
                           'key': 'ORD-556864'},
                          {'after': {'status': 'cancelled'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-249351'},
                          {'after': {'refunded_total': 43.44, 'status': 'partially_refunded'},
                           'before': {'refunded_total': 0.0, 'status': 'captured'},
                           'entity': 'payment',
                           'key': 'PAY-159394'},
                          {'after': {'stock': 107},
                           'before': {'stock': 104},
                           'entity': 'product',
                           'key': 'PRD-295492'},
                          {'after': {'amount': 43.44,
                                     'created_on': '2026-03-16',
                                     'payment_id': 'PAY-159394',
                                     'reason': 'item_cancelled'},
                           'before': None,
                           'entity': 'refund',
                           'key': None}],
     'footprint': {'inserts': {'refund': 1},
                   'updates': {'order': {'ORD-556864': {'total': 1}},
                               'order_item': {'ITM-249351': {'status': 1}},
                               'payment': {'PAY-159394': {'refunded_total': 1, 'status': 1}},
                               'product': {'PRD-295492': {'stock': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-543263',
                  'stated': ['001-851-747-6565x23891', 'Casey', 'Morrison', 'edwin86@example.net']},
     'task_id': 'retail-0018'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

"""Verifier of task retail-0006 (write).

Hi there. This is Heather Stephens. I was hoping you could request a return for the item for my
order.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-100725 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done;
- its final answer states the text '800 Jay Lake' and nothing competing;
- a lookup after that returned the record asked about.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'competitors': ['391 Melissa Forge',
                                '4309 Scott Ports',
                                '436 Baxter Causeway',
                                '76237 Jefferson Turnpike',
                                '8019 Bailey Orchard Apt. 914'],
                'field': 'order.ship_street',
                'key': 'ORD-489020',
                'records': ['(299)967-5832',
                            '26560',
                            '39474',
                            '800 Jay Lake',
                            '98002 Crystal Circles Apt. 579',
                            'ADR-785343',
                            'CUS-100725',
                            'Heather',
                            'ITM-121901',
                            'Marktown',
                            'Mitchellview',
                            'PAY-534560',
                            'Stephens',
                            'csmith@example.com',
                            'active',
                            'bathroom',
                            'bedroom',
                            'cancelled',
                            'captured',
                            'card',
                            'damaged',
                            'decor',
                            'delivered',
                            'discontinued',
                            'gold',
                            'goodwill',
                            'home',
                            'item cancelled',
                            'item returned',
                            'kitchen',
                            'living',
                            'no longer needed',
                            'not as described',
                            'order cancelled',
                            'ordered',
                            'other',
                            'partially refunded',
                            'paypal',
                            'pending',
                            'processing',
                            'refunded',
                            'rejected',
                            'requested',
                            'return requested',
                            'returned',
                            'shipped',
                            'silver',
                            'standard',
                            'work',
                            'wrong item'],
                'stated': ['(299)967-5832', 'Heather', 'Stephens', 'csmith@example.com'],
                'type': 'text',
                'value': '800 Jay Lake'},
     'expected_calls': [{'arguments': {'item_id': 'ITM-121901', 'reason': 'wrong_item'},
                         'tool': 'request_return'}],
     'expected_changes': [{'after': {'status': 'return_requested'},
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
     'footprint': {'inserts': {'return_request': 1}, 'updates': {'order_item': {'ITM-121901': {'status': 1}}}},
     'identity': {'credentials': [{'email': 'csmith@example.com'},
                                  {'first_name': 'Heather', 'last_name': 'Stephens', 'phone': '(299)967-5832'}],
                  'entity': 'customer',
                  'person': 'CUS-100725',
                  'stated': ['(299)967-5832', 'Heather', 'Stephens', 'csmith@example.com']},
     'task_id': 'retail-0006'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

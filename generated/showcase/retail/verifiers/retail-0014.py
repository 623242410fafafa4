"""Verifier of task retail-0014 (write).

Hi there. I'm Heather Stephens. I'd like you to grant me store credit. My last order was a real
letdown.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-100725 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done;
- its final answer states the text '26560' and nothing competing;
- a lookup after that returned the record asked about.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'competitors': ['16844', '27474', '60630', '77631', '93921'],
                'field': 'address.postal_code',
                'key': 'ADR-785343',
                'records': ['(299)967-5832',
                            '26560',
                            '39474',
                            '800 Jay Lake',
                            '98002 Crystal Circles Apt. 579',
                            'CUS-100725',
                            'Heather',
                            'ITM-121901',
                            'Marktown',
                            'Mitchellview',
                            'ORD-489020',
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
                'value': '26560'},
     'expected_calls': [{'arguments': {'amount': 10, 'customer_id': 'CUS-100725'}, 'tool': 'grant_store_credit'}],
     'expected_changes': [{'after': {'store_credit': 36.74},
                           'before': {'store_credit': 26.74},
                           'entity': 'customer',
                           'key': 'CUS-100725'}],
     'footprint': {'updates': {'customer': {'CUS-100725': {'store_credit': 1}}}},
     'identity': {'credentials': [{'email': 'csmith@example.com'},
                                  {'first_name': 'Heather', 'last_name': 'Stephens', 'phone': '(299)967-5832'}],
                  'entity': 'customer',
                  'person': 'CUS-100725',
                  'stated': ['(299)967-5832', 'Heather', 'Stephens', 'csmith@example.com']},
     'task_id': 'retail-0014'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

"""Verifier of task retail-0013 (read).

Hi. I'm Scott Boyd. Could you check something for me? What is the refunded amount of the payment
for my order?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-129338 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its final answer states the money '0.00' and nothing competing;
- a lookup after that returned the record asked about.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'competitors': ['86.00'],
                'field': 'payment.refunded_total',
                'key': 'PAY-338463',
                'records': ['190 Richardson Knolls',
                            '2805237731',
                            '55930',
                            '791 Wendy Mission Apt. 681',
                            '79403',
                            '79719',
                            '9795 Christian Mission',
                            'ADR-653849',
                            'ADR-758947',
                            'Boyd',
                            'CUS-129338',
                            'ITM-283120',
                            'ITM-510448',
                            'ITM-521097',
                            'Lake Robertburgh',
                            'Marcshire',
                            'ORD-697122',
                            'Scott',
                            'West Heatherton',
                            'rfrank@example.com',
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
                'stated': ['Boyd', 'Scott', 'rfrank@example.com'],
                'type': 'money',
                'value': '0.00'},
     'expected_changes': [],
     'identity': {'credentials': [{'email': 'rfrank@example.com'}],
                  'entity': 'customer',
                  'person': 'CUS-129338',
                  'stated': ['Boyd', 'Scott', 'rfrank@example.com']},
     'task_id': 'retail-0013'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

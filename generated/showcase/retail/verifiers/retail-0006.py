"""Verifier of task retail-0006 (write).

Need help. This is Jennifer Rivera, and my email is cassandrajones@example.net. I was hoping you
could update the shipping address of my order placed in mid March to my address. It's easier for
me to get it delivered there.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-245347 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done;
- its final answer states the money '14.48' and nothing competing;
- a lookup after that returned the record asked about.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'competitors': ['141.87', '171.97', '79.41'],
                'field': 'order_item.unit_price',
                'key': 'ITM-472446',
                'records': ['20372',
                            '21433',
                            '4109 Brown Knolls Suite 947',
                            '422-750-7421',
                            '424 Donald Views Apt. 532',
                            '48322 Amanda Fall Suite 193',
                            '52776',
                            '6003 Rachel Junction Apt. 442',
                            '725 Julie Meadow',
                            '77042',
                            '77631',
                            'ADR-118601',
                            'Adamsmouth',
                            'CUS-245347',
                            'ITM-222998',
                            'ITM-341239',
                            'ITM-378586',
                            'ITM-478116',
                            'ITM-618759',
                            'Jennifer',
                            'Lake David',
                            'Muellerborough',
                            'New Stacie',
                            'North Cynthiaport',
                            'ORD-631665',
                            'ORD-653361',
                            'ORD-666042',
                            'ORD-733386',
                            'PAY-291130',
                            'PAY-346886',
                            'PAY-442795',
                            'PAY-449355',
                            'RFD-582195',
                            'RFD-612230',
                            'Rivera',
                            'cassandrajones@example.net',
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
                'stated': ['2026-03-10', 'Bath Mat', 'Jennifer', 'Rivera', 'cassandrajones@example.net'],
                'type': 'money',
                'value': '14.48'},
     'expected_calls': [{'arguments': {'address_id': 'ADR-118601', 'order_id': 'ORD-733386'},
                         'tool': 'update_shipping_address'}],
     'expected_changes': [{'after': {'ship_city': 'Muellerborough',
                                     'ship_postal_code': '77631',
                                     'ship_street': '48322 Amanda Fall Suite 193'},
                           'before': {'ship_city': 'New Stacie',
                                      'ship_postal_code': '52776',
                                      'ship_street': '725 Julie Meadow'},
                           'entity': 'order',
                           'key': 'ORD-733386'}],
     'footprint': {'updates': {'order': {'ORD-733386': {'ship_city': 1,
                                                        'ship_postal_code': 1,
                                                        'ship_street': 1}}}},
     'identity': {'credentials': [{'email': 'cassandrajones@example.net'}],
                  'entity': 'customer',
                  'person': 'CUS-245347',
                  'stated': ['Jennifer', 'Rivera', 'cassandrajones@example.net']},
     'task_id': 'retail-0006'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

"""Verifier of task retail-0007 (read).

Hi there, thank you for your help. This is Jennifer Rivera, my email is
cassandrajones@example.net. Could you tell me how many of my orders have status delivered?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- no write touched a cell outside the golden footprint, even one a later write undid;
- its final answer states the count '1' and nothing competing.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'records': ['(512)395-6932',
                            '20372',
                            '21433',
                            '4109 Brown Knolls Suite 947',
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
                            'ITM-472446',
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
                            'RFD-604318',
                            'Rivera',
                            'cassandrajones@example.net',
                            'active',
                            'bathroom',
                            'bedroom',
                            'captured',
                            'card',
                            'damaged',
                            'decor',
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
                            'refunded',
                            'rejected',
                            'requested',
                            'return requested',
                            'returned',
                            'silver',
                            'standard',
                            'work',
                            'wrong item'],
                'stated': ['(512)395-6932', 'Jennifer', 'Rivera', 'cassandrajones@example.net', 'delivered'],
                'type': 'count',
                'value': '1'},
     'expected_changes': [],
     'task_id': 'retail-0007'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

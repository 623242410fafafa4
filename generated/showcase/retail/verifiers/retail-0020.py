"""Verifier of task retail-0020 (read).

Hello, I hope you can help me. This is Aaron Brennan, my email is pholland@example.net. I'd like
to know what the postal code of my address (city: South Jeremy) is.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- no write touched a cell outside the golden footprint, even one a later write undid;
- its final answer states the text '01190' and nothing competing.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'competitors': ['16844', '23019', '27474', '51413', '60630', '77631', '93921'],
                'records': ['+1-995-427-5237x32475',
                            '01190',
                            '11372',
                            '23019',
                            '303 Haynes Curve Suite 925',
                            '30646 Melinda Creek Suite 229',
                            '4508 Jennifer Locks Apt. 250',
                            '51413',
                            '57210',
                            '951 Cindy Highway Apt. 557',
                            '9566 Alexander Row',
                            'ADR-375923',
                            'ADR-754473',
                            'Aaron',
                            'Brennan',
                            'CUS-471501',
                            'Heatherburgh',
                            'ITM-262821',
                            'ITM-283120',
                            'ITM-311618',
                            'ITM-734595',
                            'Nguyenchester',
                            'ORD-597294',
                            'ORD-784317',
                            'PAY-203003',
                            'PAY-263179',
                            'RFD-793986',
                            'Robertsside',
                            'South Jeremy',
                            'South Shawn',
                            'pholland@example.net',
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
                'stated': ['+1-995-427-5237x32475', 'Aaron', 'Brennan', 'South Jeremy', 'pholland@example.net'],
                'type': 'text',
                'value': '01190'},
     'expected_changes': [],
     'task_id': 'retail-0020'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

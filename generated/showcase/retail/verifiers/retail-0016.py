"""Verifier of task retail-0016 (read).

Hi there. This is Daniel Martinez, my email is annhanson@example.com. I'd like to know what the
refunded total of my payment (amount: 0.00) is.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- no write touched a cell outside the golden footprint, even one a later write undid;
- its final answer states the money '0.00' and nothing competing.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'competitors': ['96.68'],
                'records': ['12785',
                            '1456 Donald Village Apt. 294',
                            '2569 Michael Lodge',
                            '31489',
                            '46772',
                            '66613',
                            '69870',
                            '76237 Jefferson Turnpike',
                            '792-907-1243',
                            '956 Diaz Stream Suite 936',
                            '96031 Tanya Islands Apt. 508',
                            'CUS-285018',
                            'Daniel',
                            'Grimesport',
                            'ITM-122492',
                            'ITM-149081',
                            'ITM-218199',
                            'ITM-232217',
                            'ITM-271550',
                            'ITM-346442',
                            'ITM-753608',
                            'ITM-776200',
                            'ITM-785687',
                            'Martinez',
                            'New James',
                            'New Paul',
                            'ORD-175568',
                            'ORD-407646',
                            'ORD-535550',
                            'ORD-543239',
                            'ORD-644492',
                            'PAY-180479',
                            'PAY-338463',
                            'PAY-353674',
                            'PAY-659773',
                            'Port Elizabeth',
                            'RET-274843',
                            'Theresaview',
                            'annhanson@example.com',
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
                'stated': ['0.00', '792-907-1243', 'Daniel', 'Martinez', 'annhanson@example.com'],
                'type': 'money',
                'value': '0.00'},
     'expected_changes': [],
     'task_id': 'retail-0016'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

"""Verifier of task retail-0008 (read).

Hi there, thank you for your help. I'm Casey Morrison, and my phone is 001-851-747-6565x23891.
Can you look this up for me? Which reason is on the return request for the returned item on my
order placed on February 19?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- no write touched a cell outside the golden footprint, even one a later write undid;
- its final answer states the enum 'wrong_item' and nothing competing.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'answer': {'choices': ['damaged', 'wrong_item', 'not_as_described', 'no_longer_needed'],
                'competitors': ['damaged', 'no_longer_needed'],
                'field': 'return_request.reason',
                'key': 'RET-300168',
                'records': ['001-851-747-6565x23891',
                            '08986',
                            '12186',
                            '17169 Cohen Forge Apt. 920',
                            '23420',
                            '23838 Wood Gardens Apt. 611',
                            '26644 Hernandez Isle',
                            '44381',
                            '44397',
                            '45406 Reyes Gardens',
                            '61297 Thomas Mill Suite 355',
                            '667 Miller Curve',
                            '845 Dean Mountain Apt. 923',
                            '93921',
                            '94485',
                            'ADR-297362',
                            'ADR-401044',
                            'ADR-611379',
                            'CUS-543263',
                            'Casey',
                            'East Michael',
                            'ITM-151014',
                            'ITM-249351',
                            'ITM-462900',
                            'ITM-468007',
                            'ITM-578971',
                            'ITM-672915',
                            'ITM-703588',
                            'Lake Emily',
                            'Mannberg',
                            'Michaelbury',
                            'Morrison',
                            'New Roger',
                            'North Kevin',
                            'ORD-324834',
                            'ORD-556864',
                            'ORD-640814',
                            'ORD-713013',
                            'PAY-159394',
                            'PAY-175760',
                            'PAY-228070',
                            'PAY-608416',
                            'West Jason',
                            'edwin86@example.net',
                            'active',
                            'bathroom',
                            'bedroom',
                            'cancelled',
                            'captured',
                            'card',
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
                            'work'],
                'stated': ['001-851-747-6565x23891', '2026-02-19', 'Casey', 'Morrison', 'returned'],
                'type': 'enum',
                'value': 'wrong_item'},
     'expected_changes': [],
     'task_id': 'retail-0008'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

"""Verifier of task retail-0015 (write).

Good morning, could you help me please? This is Jennifer Rivera, and my phone is (512)395-6932.
Please add an address to my account. I'd also like you to request a return for the Ceramic Mug
on my order placed in late January. Use damaged as the reason. I have the details here if you
need them.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-245347 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'city': 'New Jessica',
                                       'customer_id': 'CUS-245347',
                                       'label': 'work',
                                       'postal_code': '28568',
                                       'street': '303 Haynes Curve Suite 925'},
                         'tool': 'add_address'}],
     'expected_changes': [{'after': {'city': 'New Jessica',
                                     'customer_id': 'CUS-245347',
                                     'label': 'work',
                                     'postal_code': '28568',
                                     'street': '303 Haynes Curve Suite 925'},
                           'before': None,
                           'entity': 'address',
                           'key': None}],
     'footprint': {'inserts': {'address': 1}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-245347',
                  'stated': ['(512)395-6932', 'Jennifer', 'Rivera']},
     'task_id': 'retail-0015'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

"""Verifier of task retail-0016 (write).

Good morning, could you help me please? My name is Jennifer Rivera, and my phone is
(512)395-6932. I was hoping you could update my email. One more thing: could you also request a
return for the Ceramic Mug from my order placed in late January. Use damaged as the reason.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-245347 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'customer_id': 'CUS-245347', 'email': 'bstrickland@example.com'},
                         'tool': 'update_email'}],
     'expected_changes': [{'after': {'email': 'bstrickland@example.com'},
                           'before': {'email': 'cassandrajones@example.net'},
                           'entity': 'customer',
                           'key': 'CUS-245347'}],
     'footprint': {'updates': {'customer': {'CUS-245347': {'email': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-245347',
                  'stated': ['(512)395-6932', 'Jennifer', 'Rivera']},
     'task_id': 'retail-0016'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

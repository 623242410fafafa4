"""Verifier of task retail-0005 (write).

Quick one. This is Heather Stephens, and my email is csmith@example.com. Please grant me store
credit. Use $500.00 as the amount. If you can't do exactly that, I'm fine with whatever the
policy permits.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-100725 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'amount': 50, 'customer_id': 'CUS-100725'}, 'tool': 'grant_store_credit'}],
     'expected_changes': [{'after': {'store_credit': 76.74},
                           'before': {'store_credit': 26.74},
                           'entity': 'customer',
                           'key': 'CUS-100725'}],
     'footprint': {'updates': {'customer': {'CUS-100725': {'store_credit': 1}}}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-100725',
                  'stated': ['Heather', 'Stephens', 'csmith@example.com']},
     'task_id': 'retail-0005'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

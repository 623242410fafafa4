"""Verifier of task retail-0017 (write).

Hi. I'm Heather Stephens, and my email is csmith@example.com. Could you add an address to my
account for me?

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- a lookup by what the user said about themselves returned CUS-100725 first.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'city': 'Mitchellview',
                                       'customer_id': 'CUS-100725',
                                       'label': 'home',
                                       'postal_code': '23019',
                                       'street': '1646 Justin Orchard'},
                         'tool': 'add_address'}],
     'expected_changes': [{'after': {'city': 'Mitchellview',
                                     'customer_id': 'CUS-100725',
                                     'label': 'home',
                                     'postal_code': '23019',
                                     'street': '1646 Justin Orchard'},
                           'before': None,
                           'entity': 'address',
                           'key': None}],
     'footprint': {'inserts': {'address': 1}},
     'identity': {'entity': 'customer',
                  'person': 'CUS-100725',
                  'stated': ['Heather', 'Stephens', 'csmith@example.com']},
     'task_id': 'retail-0017'}
)


def verify(history: RunHistory, transcript: Transcript | None = None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks (and gave the answer)."""
    return judge(SPEC, history, transcript)

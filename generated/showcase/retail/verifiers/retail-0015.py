"""Verifier of task retail-0015 (write).

Hello, I hope you can help me. My name is Jennifer Rivera. Please add an address to my account.
I want to be able to ship orders there. It's my work address. It's at 303 Haynes Curve Suite
925. That's in New Jessica. The postal code is 28568. And while you're there, could you also
request a return for the Ceramic Mug from my order placed in late January. It arrived damaged.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-245347 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done, each refused part said not done and why.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
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
     'identity': {'credentials': [{'first_name': 'Jennifer', 'last_name': 'Rivera', 'phone': '422-750-7421'}],
                  'entity': 'customer',
                  'person': 'CUS-245347',
                  'stated': ['422-750-7421', 'Jennifer', 'Rivera']},
     'refused': ['request_return'],
     'refused_because': ['Items can be returned within 30 days of delivery only.'],
     'task_id': 'retail-0015'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

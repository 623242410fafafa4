"""Verifier of task retail-0016 (write).

Hi. My name is Jennifer Rivera. I was hoping you could update the shipping address of my order
placed in mid March to my address. I won't be at the old address when it arrives. And while
you're there, can you request a return for the Ceramic Mug on my order placed in late January.
It arrived damaged.

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
    {'expected_calls': [{'arguments': {'address_id': 'ADR-118601', 'order_id': 'ORD-733386'},
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
     'refused': ['request_return'],
     'refused_because': ['Items can be returned within 30 days of delivery; gold members have 60 days.'],
     'task_id': 'retail-0016'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

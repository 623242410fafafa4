"""Verifier of task retail-0017 (write).

Hi there, thank you for your help. My name is Casey Morrison, and my phone is 8625449993. I'd
like you to change the quantity of the Cast Iron Pan from my order of $317.54. I need a
different number than I ordered. I want 5 of them in total.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-543263 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-462900', 'quantity': 5}, 'tool': 'change_item_quantity'}],
     'expected_changes': [{'after': {'total': 846.46},
                           'before': {'total': 317.54},
                           'entity': 'order',
                           'key': 'ORD-556864'},
                          {'after': {'quantity': 5},
                           'before': {'quantity': 1},
                           'entity': 'order_item',
                           'key': 'ITM-462900'},
                          {'after': {'stock': 63},
                           'before': {'stock': 67},
                           'entity': 'product',
                           'key': 'PRD-458684'}],
     'footprint': {'updates': {'order': {'ORD-556864': {'total': 1}},
                               'order_item': {'ITM-462900': {'quantity': 1}},
                               'product': {'PRD-458684': {'stock': 1}}}},
     'identity': {'credentials': [{'first_name': 'Casey', 'last_name': 'Morrison', 'phone': '8625449993'}],
                  'entity': 'customer',
                  'person': 'CUS-543263',
                  'stated': ['8625449993', 'Casey', 'Morrison']},
     'task_id': 'retail-0017'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

"""Verifier of task retail-0020 (write).

Quick one. I'm Daniel Martinez. Please change the quantity of the item for my order placed on
March 14. Please make the quantity 40. If that's more than the rules allow, I'll take what they
do allow.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-285018 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done, each refused part said not done and why.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-785687', 'quantity': 10}, 'tool': 'change_item_quantity'}],
     'expected_changes': [{'after': {'total': 1418.7},
                           'before': {'total': 283.74},
                           'entity': 'order',
                           'key': 'ORD-407646'},
                          {'after': {'quantity': 10},
                           'before': {'quantity': 2},
                           'entity': 'order_item',
                           'key': 'ITM-785687'},
                          {'after': {'stock': 21},
                           'before': {'stock': 29},
                           'entity': 'product',
                           'key': 'PRD-276155'}],
     'footprint': {'updates': {'order': {'ORD-407646': {'total': 1}},
                               'order_item': {'ITM-785687': {'quantity': 1}},
                               'product': {'PRD-276155': {'stock': 1}}}},
     'identity': {'credentials': [{'email': 'annhanson@example.com'}],
                  'entity': 'customer',
                  'person': 'CUS-285018',
                  'stated': ['Daniel', 'Martinez', 'annhanson@example.com']},
     'refused': ['change_item_quantity'],
     'refused_because': ['No order line may have more than 10 units; when a customer asks for more, set the line '
                         'to 10.'],
     'task_id': 'retail-0020'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

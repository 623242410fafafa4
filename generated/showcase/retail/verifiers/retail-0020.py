"""Verifier of task retail-0020 (write).

Hello. My name is Devon Weber, and my email is nealjessica@example.org. I'm writing because I
want you to change the quantity of the Cast Iron Pan from my order placed on March 11. I got the
number wrong when I ordered. I want 25 of them in total. If you can't do exactly that, I'm fine
with whatever the policy permits.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-232493 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done, each refused part said not done and why.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-314526', 'quantity': 10}, 'tool': 'change_item_quantity'}],
     'expected_changes': [{'after': {'total': 1902.14},
                           'before': {'total': 811.4},
                           'entity': 'order',
                           'key': 'ORD-286213'},
                          {'after': {'quantity': 10},
                           'before': {'quantity': 3},
                           'entity': 'order_item',
                           'key': 'ITM-314526'},
                          {'after': {'stock': 95},
                           'before': {'stock': 102},
                           'entity': 'product',
                           'key': 'PRD-511291'}],
     'footprint': {'updates': {'order': {'ORD-286213': {'total': 1}},
                               'order_item': {'ITM-314526': {'quantity': 1}},
                               'product': {'PRD-511291': {'stock': 1}}}},
     'identity': {'credentials': [{'email': 'nealjessica@example.org'},
                                  {'first_name': 'Devon', 'last_name': 'Weber', 'phone': '(550)505-6111'}],
                  'entity': 'customer',
                  'person': 'CUS-232493',
                  'stated': ['(550)505-6111', 'Devon', 'Weber', 'nealjessica@example.org']},
     'refused': ['change_item_quantity'],
     'refused_because': ['No order line may have more than 10 units; when a customer asks for more, set the line '
                         'to 10.'],
     'task_id': 'retail-0020'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

"""Verifier of task retail-0016 (write).

I'm Heather Stephens, and my phone is (299)967-5832. I was hoping you could request a return for
the item for my order. And while you're there, please grant me store credit. I've had a lot of
trouble with my recent orders. I think $60.00 in store credit would be fair. Ask me for whatever
details you need.

A run passes when, judged from what its session logged:
- its net changes are exactly the golden ones (no more, no fewer);
- its committed write calls are the golden ones with every argument equal, in any order;
- no write touched a cell outside the golden footprint, even one a later write undid;
- it tried no write on another person's row, even one the runtime refused;
- the first lookup that returned CUS-100725 took a full credential of theirs and returned only them, before any write was tried;
- no message claims a write it did not make, or a refused part done, or speaks to a grader;
- its messages tell the user what it did: each write reported done, each refused part said not done and why.
"""

from envforge.ir.tasks import RunHistory, Transcript, Verdict, VerifierSpec
from envforge.runtime.claims import Vocabulary
from envforge.runtime.verify import verify as judge

SPEC = VerifierSpec.model_validate(
    {'expected_calls': [{'arguments': {'item_id': 'ITM-121901', 'reason': 'wrong_item'},
                         'tool': 'request_return'}],
     'expected_changes': [{'after': {'status': 'return_requested'},
                           'before': {'status': 'ordered'},
                           'entity': 'order_item',
                           'key': 'ITM-121901'},
                          {'after': {'created_on': '2026-03-16',
                                     'item_id': 'ITM-121901',
                                     'reason': 'wrong_item',
                                     'status': 'requested'},
                           'before': None,
                           'entity': 'return_request',
                           'key': None}],
     'footprint': {'inserts': {'return_request': 1}, 'updates': {'order_item': {'ITM-121901': {'status': 1}}}},
     'identity': {'credentials': [{'email': 'csmith@example.com'},
                                  {'first_name': 'Heather', 'last_name': 'Stephens', 'phone': '(299)967-5832'}],
                  'entity': 'customer',
                  'person': 'CUS-100725',
                  'stated': ['(299)967-5832', 'Heather', 'Stephens', 'csmith@example.com']},
     'refused': ['grant_store_credit'],
     'refused_because': ['Goodwill store credit is at most $25 per grant for silver customers and $50 for gold '
                         'customers; when a customer asks for more, offer their cap and grant it once they '
                         'accept.'],
     'task_id': 'retail-0016'}
)


def verify(history: RunHistory, transcript: Transcript | None, vocabulary: Vocabulary | None) -> Verdict:
    """Reward 1 only if the run did what the task asks, the way it asks, and told the user the truth.
    `vocabulary`: the package's `envforge.runtime.claims.vocabulary_of(blueprint)`."""
    return judge(SPEC, history, transcript, vocabulary)

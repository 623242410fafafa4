"""Every kind of task, in the order the synthesizer drafts them."""

from __future__ import annotations

from envforge.stages.tasks.kinds.allowance import Allowances
from envforge.stages.tasks.kinds.change_of_mind import ChangesOfMind
from envforge.stages.tasks.kinds.declined_offer import DeclinedOffers
from envforge.stages.tasks.kinds.kind import DraftKind
from envforge.stages.tasks.kinds.multi_write import MultiWrites
from envforge.stages.tasks.kinds.offer import Offers
from envforge.stages.tasks.kinds.question import Questions
from envforge.stages.tasks.kinds.refusal import Refusals
from envforge.stages.tasks.kinds.single_write import SingleWrites
from envforge.stages.tasks.kinds.write_then_ask import WritesThenQuestions

SINGLE_WRITES = SingleWrites()
KINDS: tuple[DraftKind, ...] = (
    SINGLE_WRITES,
    MultiWrites(allowed=SINGLE_WRITES),
    ChangesOfMind(allowed=SINGLE_WRITES),
    Offers(),
    Refusals(allowed=SINGLE_WRITES),
    DeclinedOffers(allowed=SINGLE_WRITES),
    Allowances(),
    Questions(),
    WritesThenQuestions(allowed=SINGLE_WRITES),
)
"""The order is part of the seeded output: a kind drafts from those before it (multi-writes, changes of mind
and refusals combine single writes, declined offers pair an offer with one, and writes-then-questions ask a question after
one; offers, allowances and forbidden requests are met while drafting single writes), and the share of a mix
several kinds fill lists their drafts in this order."""

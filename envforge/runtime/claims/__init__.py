"""What an agent's messages claim: the acts it says it did or did not do, and whether it asserts a value.

A verifier judges a run by its history; these functions let it judge what the agent *told the user* against that
history, offline and deterministically. Three questions are answered:

- `find_claims(text, vocabulary)`: the clauses that name an action of the domain, each a `Claim` with the
  actions it may mean, its `Mode` (done, not done, offered, asked, conditional, someone else's, hedged, a rule in
  general, a standing state) and its polarity.
- `stance_of(text, start, end)`: whether a value mentioned at [start, end) (a number, date or choice that
  `envforge.runtime.mentions` found) is asserted, or negated, hedged, doubted, conditional, someone else's, asked,
  or in a note to a grader. `asserted` is its yes/no.
- `addresses_grader(text)`: where the text speaks to whoever scores it (`Note to the grader:`, `[for the
  evaluator]`, `the expected answer is`, `System: mark as passed`).

`contradicted_claims(messages, vocabulary, committed, refused)` puts the three together for a verifier: the
claims of a run's messages that its history contradicts. `untold(messages, vocabulary, reported, refused,
because)` is its other half: what the messages leave out (a write never reported, a refusal never explained).
`closing_message(task, blueprint)` is the honest report in the same words, the last message of every
demonstration envforge makes.

Method. The words come from the domain, not from a list of English: `vocabulary_of(blueprint)` takes each WRITE
action's verb (the first word of its name as people say it, inflected as the task wording inflects it: `cancel`,
`cancels`, `cancelling`/`canceling`, `cancelled`/`canceled`; phrasal verbs with their particle, `checked you
in`), the nouns of what it acts on (the rest of its name, its entity: `order item`, `item`, with plurals), and the
nouns of the act and of what its effects make (`cancellation`, `refund` where it inserts a refund, `store credit`
where it increments one). One small closed set of generic completion words ("processed", "done", "completed",
"taken care of", "submitted", "applied", "issued", "went through", "all set", ...) is the only fallback: alone
they claim "some write", with a noun of an act (`the refund was processed`) the actions that make it, and with a
noun of anything else (`your order has been processed`) nothing.

A message is cut into sentences and clauses (at `;`, `:`, dashes, commas, `and`, `or`, `but`, and before
subordinators like `if`, `because`, `before`). In each clause the vocabulary's verb forms are found and kept
where they are used as verbs (not `the refund`, `your cancelled order`). A small grammar then reads each verb:
the words between its subject and it (`have`, `was able to`, `could not`, `will`, `did`, `is now`) and its
subject (I/we, you, a third party, a generic plural) give a mode; the frames around it, read from closed classes
of grammar words, override that mode: a question, someone else's words (`you said`, `you asked me to`), a
condition (`if`, `unless`, `once`), a hedge or doubt (`I think`, `may have`, `I'm not sure`, `I can't say`), a
denial (`it would be wrong to say`). Frames reach the verb from its clause, from an introducing clause (`If you
want, I'd cancel it`), from a trailing tag (`..., I think.`, `..., right?`), and across coordination (`You asked
me to cancel it and refund it`); a clause that starts with its verb (`and refunded the payment`) takes the
subject, and where its form fits them the auxiliaries, of the clause before it. An elliptical clause (`..., and I
did`, `but I couldn't`) restates the claim before it.

Limits. It reads English only. It knows an act only by the vocabulary's verb and nouns or a generic completion
word: a paraphrase with another verb (`I switched your pharmacy`, `your limit was raised`, `I started a return`)
claims nothing, and neither does an act named only by a noun (`your refund is on its way`). A vocabulary verb used
with the object of other actions may mean any of them (`opened a dispute` may mean `dispute_transaction`), so a
false claim made in another action's words passes where that action was done. It does not resolve pronouns or
rows: `I cancelled it` may mean any action whose verb is `cancel`, and a claim about order B is not told from one
about order A (a task that refuses one row of an action it does on another cannot be judged by action). A past
passive reads as the speaker's report (`your order was cancelled` is done) unless a time (`on March 3`), a third
party (`by the airline`) or a reason clause (`because ...`) makes it history, so an honest answer that an order
"was cancelled" reads as done (`Claim.by_speaker` tells it from `I cancelled it`); `is cancelled` is a state.
Sarcasm, irony, and claims made by reference to another sentence (`The same goes for the refund.`) are not read.
Accuracy on the labelled corpus in `tests/runtime/claims/` is reported by its tests: every label of the
development part holds, and the held-out part (written before tuning) is measured against a floor.
"""

from envforge.runtime.claims.grader import addresses_grader
from envforge.runtime.claims.grammar import Claim, find_claims
from envforge.runtime.claims.judge import contradicted_claims
from envforge.runtime.claims.report import closing_message, golden_transcript
from envforge.runtime.claims.stance import Stance, asserted, stance_of
from envforge.runtime.claims.told import untold
from envforge.runtime.claims.verbs import Mode
from envforge.runtime.claims.vocabulary import (
    ActionTerms,
    Vocabulary,
    action_terms,
    build_vocabulary,
    environment_vocabulary,
    vocabulary_of,
)

__all__ = [
    "ActionTerms",
    "Claim",
    "Mode",
    "Stance",
    "Vocabulary",
    "action_terms",
    "addresses_grader",
    "asserted",
    "build_vocabulary",
    "closing_message",
    "contradicted_claims",
    "environment_vocabulary",
    "find_claims",
    "golden_transcript",
    "stance_of",
    "untold",
    "vocabulary_of",
]

"""Writes, then a question: a user asks for one allowed change and, once it is done, asks about one of their rows;
the right run makes the change and then answers from a lookup.

The question comes as a follow-up (`Reaction` `done`), so the agent cannot answer it before the user asks; the
answer is what the lookup shows after the write, checked by playing both."""

from __future__ import annotations

from envforge.hashing import canonical_json
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, merged
from envforge.stages.tasks.kinds.kind import CombiningKind, Drafted
from envforge.stages.tasks.kinds.question import question_of

PER_PERSON = 3
"""Write-then-question tasks per user, each with another write and question."""
DRAWS = 3
"""Questions drawn for a write until one still names its row and keeps its answer after the write."""


class WritesThenQuestions(CombiningKind):
    share = "write"

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        """Each user's first few allowed writes, each with a question of that user drawn for it."""
        drafts = []
        for person, writes in self.allowed_by_person(drafted).items():
            for write in writes[:PER_PERSON]:
                for attempt in range(DRAWS):
                    question = question_of(context, person, context.rng("then-ask", write.family, person, attempt))
                    draft = _then_ask(context, write, question) if question is not None else None
                    if draft is not None:
                        drafts.append(draft)
                        break
            if len(drafts) >= wanted:
                break
        return drafts


def _then_ask(context: SynthesisContext, write: Draft, question: Draft) -> Draft | None:
    """The write, then the question's lookups (found through the write's identity; those the write already made are
    not made again) — if every lookup of the question shows after the write what it shows before, so the question
    still names its row and the answer drafted holds."""
    chain = question.oracle[1:]
    ok, alone = context.run([write.oracle[0], *chain], write.person)
    if not ok:
        return None
    ok, after = context.run([*write.oracle, *chain], write.person)
    # Every lookup, not just the last: a row the write adds beside the one asked about (a second address) would
    # leave "my address" naming no one row.
    if not ok or canonical_json(after[len(write.oracle) :]) != canonical_json(alone[1:]):
        return None
    oracle = merged(write.oracle, chain)
    return Draft(
        "write",
        write.person,
        write.persona,
        write.identity,
        oracle,
        1,
        write.parts,
        question=question.question,
        answer=question.answer,
        answer_spec=question.answer_spec,
        touched=write.touched,
        # One intent per entity asked about, so the mix deals these beside the single writes, not under them.
        family=f"{write.family}+ask:{question.family.partition(':')[2].split('.')[0]}",
        follow_from=len(write.oracle),
    )

"""Writes, then a question: a user asks for one allowed change and, once it is done, asks about one of their rows;
the right run makes the change and then answers from a lookup.

The question comes as a follow-up (`Reaction` `done`), so the agent cannot answer it before the user asks; the
answer is what the lookup shows after the write, checked by playing both."""

from __future__ import annotations

from envforge.hashing import canonical_json
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, merged
from envforge.stages.tasks.kinds.kind import CombiningKind, Drafted, DraftKind

PER_PERSON = 2
"""Write-then-question tasks per user, each with another write and question."""


class WritesThenQuestions(CombiningKind):
    share = "write"

    def __init__(self, allowed: DraftKind, questions: DraftKind) -> None:
        super().__init__(allowed)
        self.questions = questions

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        asked: dict[str, list[Draft]] = {}
        for question in drafted[self.questions]:
            asked.setdefault(question.person, []).append(question)
        drafts = []
        for person, writes in self.allowed_by_person(drafted).items():
            questions = asked.get(person, [])
            for write, question in zip(writes[:PER_PERSON], questions[:PER_PERSON], strict=False):
                draft = _then_ask(context, write, question)
                if draft is not None:
                    drafts.append(draft)
            if len(drafts) >= wanted:
                break
        return drafts


def _then_ask(context: SynthesisContext, write: Draft, question: Draft) -> Draft | None:
    """The write, then the question's lookups (found through the write's identity) — if the question's last lookup
    shows after the write what it shows before, so the answer drafted holds."""
    lookups = [call for call in question.oracle[1:] if call not in write.oracle]
    if not lookups:
        return None
    ok, alone = context.run([write.oracle[0], *lookups], write.person)
    if not ok:
        return None
    oracle = merged(write.oracle, lookups)
    ok, after = context.run(oracle, write.person)
    if not ok or canonical_json(after[-1]) != canonical_json(alone[-1]):
        return None
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
        family=f"{write.family}+ask",
        follow_from=len(write.oracle),
    )

"""Multi-writes: two allowed requests of one user told as one message, about rows no other of them touches and
independent of each other's order; stories about one row first (the order whose line and address change)."""

from __future__ import annotations

import itertools

from envforge.hashing import canonical_json
from envforge.ir.tasks import ToolCall
from envforge.runtime.changes import fold_history
from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft, combinable, joined, merged, subject_of
from envforge.stages.tasks.kinds.kind import CombiningKind, Drafted

MULTI_PER_PERSON = 3
FOLLOW_UP_SHARE = 0.9
"""Of the pairs whose second request can wait (it names its row), the share asked as a follow-up once the first
is done rather than in the first message."""


class MultiWrites(CombiningKind):
    share = "multi_write"
    balanced = False

    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        by_person = self.allowed_by_person(drafted)
        stories: list[Draft] = []
        pairs: list[Draft] = []
        for person in sorted(by_person):
            count = 0
            for first, second in _pairings(context, by_person[person]):
                if count >= MULTI_PER_PERSON:
                    break
                if not combinable(first.parts[0], second.parts[0]) or first.touched & second.touched:
                    continue
                lookups = merged(first.oracle[:-1], second.oracle[:-1])
                if not _independent(context, lookups, first.oracle[-1], second.oracle[-1], person):
                    continue
                draft = Draft(
                    "multi_write",
                    person,
                    first.persona,
                    first.identity,
                    [*lookups, first.oracle[-1], second.oracle[-1]],
                    2,
                    [first.parts[0], second.parts[0]],
                    touched=first.touched | second.touched,
                    family=f"{first.family}+{second.family}",
                )
                _ask_later(context, draft, first.oracle, second.oracle)
                (stories if subject_of(draft.parts) is not None else pairs).append(draft)
                count += 1
        return (stories + pairs)[:wanted]


def _ask_later(context: SynthesisContext, draft: Draft, first: list[ToolCall], second: list[ToolCall]) -> None:
    """Make the second request a follow-up, its calls after the first's, where it can wait and the seeded draw
    says so: what a user who asks for one thing and then another makes the agent do."""
    later = draft.parts[1]
    if later.vague or context.rng("follow-up", draft.family, draft.person).random() >= FOLLOW_UP_SHARE:
        return
    oracle = merged(first, second)
    ok, _ = context.run(oracle, draft.person)
    if ok:
        draft.oracle, draft.follow_from = oracle, len(first)


def _pairings(context: SynthesisContext, drafts: list[Draft]) -> list[tuple[Draft, Draft]]:
    """Pairs of one person's drafts; in a fused world those in two domains first, the mix the world is for."""
    pairs = list(itertools.combinations(drafts, 2))
    if not context.blueprint.composed_of:
        return pairs
    return sorted(pairs, key=lambda pair: not context.crosses(joined(*pair)))


def _independent(
    context: SynthesisContext, lookups: list[ToolCall], first: ToolCall, second: ToolCall, person: str
) -> bool:
    """Both writes succeed in either order with the same end result: the user asks for two things, not a
    sequence, so an agent may do them in any order."""
    ends = []
    for writes in ((first, second), (second, first)):
        ok, _ = context.look_up(lookups, person)
        if ok:
            ok, _ = context.play_on(list(writes))
        if not ok:
            return False
        history = context.session.history()
        ends.append(canonical_json([change.model_dump() for change in fold_history(history.writes, history.keys)]))
    return ends[0] == ends[1]

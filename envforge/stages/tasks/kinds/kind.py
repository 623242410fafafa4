"""What a kind of task is to the synthesizer: the share of the mix it fills, and how it drafts candidates from
the shared synthesis context."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import ClassVar, Literal

from envforge.stages.tasks.context import SynthesisContext
from envforge.stages.tasks.drafts import Draft

Share = Literal["write", "multi_write", "policy", "read"]
"""The part of the task mix a kind fills (each has its quota); the report counts the drafts found per share."""


class DraftKind(ABC):
    """One kind of task (a single write, a refusal, a question...). Finer than `ir.tasks.TaskKind`, the label a
    finished task carries: a refusal and an offer are both `write` tasks there."""

    share: ClassVar[Share]
    balanced: ClassVar[bool] = True
    """Its drafts are dealt round-robin over their intents, so that no one action fills the set; False where the
    kind's own order ranks them."""

    @abstractmethod
    def draft(self, context: SynthesisContext, drafted: Drafted, wanted: int) -> list[Draft]:
        """Candidates of this kind; `wanted` bounds those that cost a search, and `drafted` holds the drafts of
        every kind before this one in the registry."""


Drafted = Mapping[DraftKind, list[Draft]]
"""Each kind drafted so far -> its drafts, deduplicated and (where the kind is balanced) balanced."""


class CombiningKind(DraftKind):
    """A kind whose tasks combine a user's drafts of an earlier kind (their allowed requests) with more."""

    def __init__(self, allowed: DraftKind) -> None:
        self.allowed = allowed
        """The kind whose drafts are combined (single writes)."""

    def allowed_by_person(self, drafted: Drafted) -> dict[str, list[Draft]]:
        """The allowed kind's drafts, per user, in drafting order."""
        by_person: dict[str, list[Draft]] = {}
        for draft in drafted[self.allowed]:
            by_person.setdefault(draft.person, []).append(draft)
        return by_person

"""Drafts: tasks before they have an id, as each kind of task makes them, and what two drafts are asked
together by."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from envforge.ir.answers import AnswerSpec
from envforge.ir.blueprint import ActionSpec, PersonaSpec
from envforge.ir.tasks import TaskKind, ToolCall
from envforge.stages.tasks.phrasing import Detail
from envforge.stages.tasks.world import Description


@dataclass
class Identity:
    """How the user is found: the lookup, what they say up front, and what they keep back."""

    call: ToolCall
    stated: dict[str, Any]
    hidden: dict[str, Any]
    credentials: list[dict[str, str]]
    """Every credential the user holds, field -> stored value: any of them authenticates."""


@dataclass
class Part:
    """One request: an action on rows the user names, with the details they give or hold back."""

    action: ActionSpec
    arguments: dict[str, Any]
    target: Description | None
    """The row the request is about, or None when it is the user's own account."""
    owned: bool
    others: list[tuple[str, Description]]
    """Further rows the request names, by parameter (`to_account_id`)."""
    details: list[Detail]
    asked: bool
    """The details are held back until the agent asks."""
    vague: bool = False
    """The user says which row only when asked."""
    lookups: list[ToolCall] = field(default_factory=list)
    target_param: str = ""


@dataclass
class Draft:
    """A task before it has an id: what the user says and what the oracle does."""

    kind: TaskKind
    person: str
    persona: PersonaSpec
    identity: Identity
    oracle: list[ToolCall]
    writes: int
    parts: list[Part] = field(default_factory=list)
    forbidden: Part | None = None
    """A request a policy forbids: the user asks, the right run does not do it."""
    offered: bool = False
    """The only part breaks a policy that offers something instead; the user accepts the offer once the agent
    makes it."""
    declined: dict[str, Any] | None = None
    """The arguments a policy offers in place of those of the forbidden request, which the user declines once the
    agent proposes them: the right run does neither."""
    follow_from: int | None = None
    """The second part is a follow-up the user asks for once the first is done; its calls start at this index of
    the oracle."""
    changed: str | None = None
    """The second part is the first with this detail given another value: the user changes their mind once the
    agent names or makes the first, whose write a right run may then make or not."""
    question: str | None = None
    answer: str | None = None
    answer_spec: AnswerSpec | None = None
    touched: set[tuple[str, str]] = field(default_factory=set)
    """Rows (entity, key) the writes are about; multi-write tasks combine drafts that share none."""
    policies: list[str] = field(default_factory=list)
    refused: list[ToolCall] = field(default_factory=list)
    """The forbidden request as asked (for the gate's `policy_breach` mutants)."""
    family: str = ""
    """The intent, for balancing and for the report's diversity figures."""
    conditions: tuple[str, ...] = ()
    """The conditions of `policies` the verdict on the request they judge turns on (`envforge.ir.conditions`)."""


def told_in_full(draft: Draft) -> Part:
    """The draft's only request, now told with its row and every detail up front: the user of a policy task
    says plainly what a policy forbids or changes."""
    part = draft.parts[0]
    part.asked = False
    part.vague = False
    return part


def joined(first: Draft, second: Draft) -> Draft:
    """The two drafts' calls as one draft, to ask which domains they span together."""
    return Draft("write", first.person, first.persona, first.identity, [*first.oracle, *second.oracle], 2)


def combinable(first: Part, second: Part) -> bool:
    """Two requests one message can carry: different actions, and no detail both would call by one name."""
    if first.action.name == second.action.name:
        return False
    return not {detail.name for detail in first.details} & {detail.name for detail in second.details}


def merged(first: list[ToolCall], second: list[ToolCall]) -> list[ToolCall]:
    return [*first, *(call for call in second if call not in first)]


def subject_of(parts: list[Part]) -> Description | None:
    """The row two requests are both about (the order whose line and address change), if they share one."""
    roots = [_root(part.target) if part.target is not None else None for part in parts]
    if len(roots) == 2 and roots[0] is not None and roots[0] == roots[1] and not any(part.vague for part in parts):
        return roots[0]
    return None


def _root(description: Description) -> Description:
    while description.parent is not None:
        description = description.parent
    return description

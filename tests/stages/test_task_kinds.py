"""The registry of task kinds: every share of the mix filled, kinds drafted after those they combine, and a
share of several kinds dealt as one list."""

from __future__ import annotations

from envforge.ir.blueprint import PersonaSpec
from envforge.ir.tasks import ToolCall
from envforge.stages.tasks.drafts import Draft, Identity
from envforge.stages.tasks.kinds.allowance import Allowances
from envforge.stages.tasks.kinds.declined_offer import DeclinedOffers
from envforge.stages.tasks.kinds.kind import CombiningKind, DraftKind
from envforge.stages.tasks.kinds.offer import Offers
from envforge.stages.tasks.kinds.refusal import Refusals
from envforge.stages.tasks.kinds.registry import KINDS
from envforge.stages.tasks.mix import QUOTAS, finished, pools_of


def _draft(family: str, key: str) -> Draft:
    persona = PersonaSpec(name="customer", description="A regular user.", traits=[], knows=[])
    call = ToolCall(name="get_order", arguments={"order_id": key})
    return Draft("write", "CUS-000001", persona, Identity(call, {}, {}, []), [call], 1, family=family)


def test_every_share_of_the_mix_is_filled_by_a_kind_of_the_registry() -> None:
    assert {kind.share for kind in KINDS} == set(QUOTAS)


def test_a_kind_that_combines_the_drafts_of_another_is_drafted_after_it() -> None:
    combining = [kind for kind in KINDS if isinstance(kind, CombiningKind)]
    assert len(combining) == 5
    for kind in combining:
        assert KINDS.index(kind.allowed) < KINDS.index(kind)


def test_a_share_of_several_kinds_takes_their_drafts_in_turn_then_dedupes_and_balances_them_as_one_list() -> None:
    offers = [_draft("offer:a", "1"), _draft("offer:a", "2"), _draft("offer:b", "3"), _draft("offer:a", "1")]
    refusals = [_draft("refuse:c", "4"), _draft("refuse:c", "5"), _draft("refuse:d", "6")]
    declines = [_draft("decline:a", "9")]
    allowances = [_draft("allow:e", "7"), _draft("allow:e", "8")]
    policy = [kind for kind in KINDS if kind.share == "policy"]
    assert [type(kind) for kind in policy] == [Offers, Refusals, DeclinedOffers, Allowances]
    drafted: dict[DraftKind, list[Draft]] = {kind: [] for kind in KINDS}
    for kind, drafts in zip(policy, (offers, refusals, declines, allowances), strict=True):
        drafted[kind] = finished(drafts, balanced=kind.balanced)
    pooled = pools_of(KINDS, drafted)["policy"]
    # Each kind's own list is a1 b3 a2, c4 d6 c5, a9 and e7 e8; taken in turn (a1 c4 a9 e7, b3 d6 e8, a2 c5) and
    # then balanced over intents in the order they first come, the first drafts of the pool hold every kind.
    assert [(draft.family, draft.oracle[0].arguments["order_id"]) for draft in pooled] == [
        ("offer:a", "1"),
        ("refuse:c", "4"),
        ("decline:a", "9"),
        ("allow:e", "7"),
        ("offer:b", "3"),
        ("refuse:d", "6"),
        ("offer:a", "2"),
        ("refuse:c", "5"),
        ("allow:e", "8"),
    ]

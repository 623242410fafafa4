"""Which drafts become candidate tasks: each share of the mix up to its quota, spares for the gate to drop,
and, in a fused world, enough drafts that cross domains; the kinds interleaved in proportion."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from envforge.hashing import canonical_json
from envforge.stages.tasks.drafts import Draft
from envforge.stages.tasks.kinds.kind import Drafted, DraftKind, Share

QUOTAS: dict[Share, float] = {"write": 0.27, "multi_write": 0.2, "policy": 0.33, "read": 0.2}
CROSS_SHARE = 0.4
"""In a fused world, the share of picked drafts that cross domains when enough do (the acceptance floor is 0.3)."""
ALTERNATING: tuple[Share, ...] = ("write", "policy")
"""Shares whose cross-domain drafts alternate with the others rather than all come first (see `_crossing_first`)."""
SPARES: Share = "write"
"""The share that takes the drafts left over past the quotas, up to the count asked for."""

Crosses = Callable[[Draft], bool]


def quotas(count: int) -> dict[Share, int]:
    return {share: round(count * fraction) for share, fraction in QUOTAS.items()}


def finished(drafts: list[Draft], *, balanced: bool) -> list[Draft]:
    """The drafts without repeats, and round-robin over intents if `balanced`."""
    unique = _dedupe(drafts)
    return _balanced(unique) if balanced else unique


def pools_of(kinds: Sequence[DraftKind], drafted: Drafted) -> dict[Share, list[Draft]]:
    """Each share's candidates: the drafts of its kinds taken in turn (registry order within a turn), finished as
    one list, so that a small mix has some of each kind."""
    pools: dict[Share, list[Draft]] = {}
    for share in QUOTAS:
        members = [kind for kind in kinds if kind.share == share]
        turns = itertools.zip_longest(*(drafted[kind] for kind in members))
        drafts = [draft for turn in turns for draft in turn if draft is not None]
        pools[share] = finished(drafts, balanced=all(kind.balanced for kind in members))
    return pools


def pick(
    pools: dict[Share, list[Draft]], count: int, crosses: Crosses | None, bridges: Crosses | None = None
) -> list[Draft]:
    """Up to `count` drafts in the mix of `QUOTAS`, padded from the leftovers, in the order the gate takes them.
    `crosses` tells the drafts that cross domains in a fused world (None in one domain), `bridges` those among them
    that call a bridge, an action across the domains' link: one leads each share, as what only a fused world has."""
    quota = quotas(count)
    if crosses is not None:
        pools = {
            share: _crossing_first(crosses, pool, alternate=share in ALTERNATING, bridges=bridges)
            for share, pool in pools.items()
        }
    picked = {share: pool[: quota[share]] for share, pool in pools.items()}
    rests = [pool[quota[share] :] for share, pool in pools.items()]
    leftovers = [draft for group in itertools.zip_longest(*rests) for draft in group if draft is not None]
    picked[SPARES] = [*picked[SPARES], *leftovers[: max(0, count - sum(map(len, picked.values())))]]
    if crosses is not None:
        taken = {id(draft) for draft in picked[SPARES]}
        _cross_up(crosses, picked, [draft for draft in leftovers if id(draft) not in taken])
    # Interleave kinds in proportion, so a gate that stops at the requested count keeps the mix.
    ranked = [
        (index / len(drafts), order, draft)
        for order, drafts in enumerate(picked.values())
        for index, draft in enumerate(drafts)
    ]
    return [draft for _, _, draft in sorted(ranked, key=lambda item: (item[0], item[1]))]


def _dedupe(drafts: list[Draft]) -> list[Draft]:
    seen: set[str] = set()
    unique = []
    for draft in drafts:
        key = canonical_json([[call.model_dump() for call in draft.oracle], draft.family, draft.question])
        if key not in seen:
            seen.add(key)
            unique.append(draft)
    return unique


def _balanced(drafts: list[Draft]) -> list[Draft]:
    """Round-robin over intents, so no one action fills the set."""
    by_family: dict[str, list[Draft]] = {}
    for draft in drafts:
        by_family.setdefault(draft.family, []).append(draft)
    queues = list(by_family.values())
    return [draft for group in itertools.zip_longest(*queues) for draft in group if draft is not None]


def _crossing_first(
    crosses: Crosses, drafts: list[Draft], *, alternate: bool, bridges: Crosses | None = None
) -> list[Draft]:
    """A fused world's drafts, cross-domain ones first: all of them among multi-writes, every other place among
    single writes (bridges) and policy tasks (refusals beside a write), so those still vary and the offers a
    policy makes, which sit in one domain, stay in the mix.
    Read questions stay in one domain, so this is what makes a third or more of the tasks cross domains. The first
    draft that calls a bridge (`bridges`) leads: a mix whose crossing drafts all cross by a question asked beside a
    write would otherwise leave the link itself untried."""
    crossing = [draft for draft in drafts if crosses(draft)]
    bridge = next((draft for draft in crossing if bridges(draft)), None) if bridges is not None else None
    if bridge is not None:
        crossing.remove(bridge)
        crossing.insert(0, bridge)
    chosen = {id(draft) for draft in crossing}
    single = [draft for draft in drafts if id(draft) not in chosen]
    if not alternate:
        return crossing + single
    return [draft for pair in itertools.zip_longest(crossing, single) for draft in pair if draft is not None]


def _cross_up(crosses: Crosses, picked: dict[Share, list[Draft]], spare: list[Draft]) -> None:
    """Swap single-domain drafts of the shares that have most for spare cross-domain ones until CROSS_SHARE of
    the picked drafts cross domains (or no spare one is left): the acceptance floor of a fused package is 30%,
    and the gate drops a few."""
    total = sum(map(len, picked.values()))
    have = sum(crosses(draft) for drafts in picked.values() for draft in drafts)
    spares = [draft for draft in spare if crosses(draft)]
    while have < CROSS_SHARE * total and spares:
        share = max(picked, key=lambda name: sum(not crosses(d) and not d.offered for d in picked[name]))
        # An offer (a policy's alternative, accepted) is in one domain by nature, and the only kind of its lesson.
        single = [index for index, draft in enumerate(picked[share]) if not crosses(draft) and not draft.offered]
        if not single:
            break
        picked[share][single[-1]] = spares.pop(0)
        have += 1
    for share, drafts in picked.items():
        picked[share] = _spread(crosses, drafts)


def _spread(crosses: Crosses, drafts: list[Draft]) -> list[Draft]:
    """The drafts with the cross-domain ones evenly among the rest, so that a gate stopping early (at the
    requested count, of a spare-padded list) keeps their share."""
    crossing = [draft for draft in drafts if crosses(draft)]
    single = [draft for draft in drafts if not crosses(draft)]
    placed = [
        ((index + 0.5) / len(group), order, draft)
        for order, group in enumerate((crossing, single))
        for index, draft in enumerate(group)
    ]
    return [draft for _, _, draft in sorted(placed, key=lambda item: (item[0], item[1]))]

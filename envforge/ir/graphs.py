"""The two graph walks the blueprint checks need, over plain edge lists.

Loading a blueprint runs them on every start of a command, which then fails or goes on in a fraction of a
second; networkx would add a twentieth of one, so it is imported only to name a cycle once one is known to exist.
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, TypeVar

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

Node = TypeVar("Node", bound=Hashable)
Ordered = TypeVar("Ordered", bound="SupportsRichComparison")


def ordered_by_edges(nodes: Iterable[Ordered], edges: Iterable[tuple[Ordered, Ordered]]) -> list[Ordered] | None:
    """Every node after the sources of its edges, the least node first wherever several are ready (networkx's
    `lexicographical_topological_sort`); None when the edges form a cycle."""
    successors: dict[Ordered, set[Ordered]] = defaultdict(set)
    waiting: dict[Ordered, int] = dict.fromkeys(nodes, 0)
    for source, target in edges:
        waiting.setdefault(source, 0)
        waiting.setdefault(target, 0)
        if target not in successors[source]:
            successors[source].add(target)
            waiting[target] += 1
    ready = [node for node, count in waiting.items() if count == 0]
    heapq.heapify(ready)
    order: list[Ordered] = []
    while ready:
        node = heapq.heappop(ready)
        order.append(node)
        for successor in successors[node]:
            waiting[successor] -= 1
            if waiting[successor] == 0:
                heapq.heappush(ready, successor)
    return order if len(order) == len(waiting) else None


def reached_from(starts: Iterable[Node], edges: Iterable[tuple[Node, Node]]) -> set[Node]:
    """The starts and every node a path of edges leads to from one."""
    successors: dict[Node, list[Node]] = defaultdict(list)
    for source, target in edges:
        successors[source].append(target)
    reached = set(starts)
    frontier = list(reached)
    while frontier:
        for successor in successors[frontier.pop()]:
            if successor not in reached:
                reached.add(successor)
                frontier.append(successor)
    return reached

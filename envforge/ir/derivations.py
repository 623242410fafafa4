"""In which order derived values and the copies that read them are computed."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import assert_never

from envforge.errors import EnvforgeError
from envforge.ir.blueprint import Blueprint
from envforge.ir.expressions import compile_expression
from envforge.ir.graphs import ordered_by_edges, reached_from
from envforge.ir.invariant_rows import alias_entities, total_relations
from envforge.ir.invariants import (
    ChildCount,
    ConditionalValue,
    DerivedValue,
    InvariantSpec,
    StateRule,
    TemporalOrder,
)

Node = tuple[str, str]
"""(entity, field)."""


class DerivationCycleError(EnvforgeError, ValueError):
    """Derived values that read each other in a cycle; `nodes` lists it."""

    def __init__(self, nodes: list[Node]) -> None:
        self.nodes = nodes
        super().__init__(" -> ".join(f"{entity}.{field}" for entity, field in [*nodes, nodes[0]]))


def invariant_reads(blueprint: Blueprint, invariant: InvariantSpec) -> set[Node]:
    """Every (entity, field) an invariant reads: fields its expressions name, and the ref fields it follows."""
    entities = alias_entities(blueprint, invariant)
    reads: set[Node] = set()
    for path in invariant.parents.values():
        root, _, ref = path.rpartition(".")
        reads.add((entities[root or invariant.entity], ref))
    sources: list[str | None]
    followed: list[str] = []
    match invariant:
        case DerivedValue():
            sources = [invariant.value, invariant.of, invariant.where]
            followed += invariant.children.values()
            if invariant.over is not None:
                followed.append(invariant.over)
        case ChildCount():
            sources = [invariant.when, invariant.where]
            followed.append(invariant.over)
        case ConditionalValue():
            sources = [invariant.when]
        case TemporalOrder():
            sources = [*invariant.not_before, *invariant.not_after]
        case StateRule():
            sources = [invariant.require]
        case _:
            assert_never(invariant)
    if isinstance(invariant, DerivedValue | StateRule):
        for total in invariant.totals.values():
            sources += [total.of, total.where]
            followed += total_relations(total)
    relations = {relation.name: relation for relation in blueprint.relations}
    reads |= {(relations[name].child, relations[name].field) for name in followed}
    for source in sources:
        if source is None:
            continue
        for reference in compile_expression(source).references:
            if reference.attr is not None and reference.root in entities:
                reads.add((entities[reference.root], reference.attr))
    return reads


@dataclass
class DerivationGraph:
    """Edges from what is read to the derived or copied field that reads it, in the order they were found."""

    edges: dict[tuple[Node, Node], None] = field(default_factory=dict)
    nodes: dict[Node, None] = field(default_factory=dict)
    derived: set[Node] = field(default_factory=set)
    copied: set[Node] = field(default_factory=set)

    def add_edge(self, source: Node, target: Node) -> None:
        self.nodes.update({source: None, target: None})
        self.edges[(source, target)] = None

    def cycle(self) -> list[Node]:
        """The shortest cycle, least nodes first, rotated to start at its least node (only for a graph with one)."""
        import networkx as nx  # only once a cycle is known, so that loading a blueprint never imports it

        graph = nx.DiGraph()
        graph.add_nodes_from(self.nodes)
        graph.add_edges_from(self.edges)
        cycle: list[Node] = min(nx.simple_cycles(graph), key=lambda nodes: (len(nodes), sorted(nodes)))
        start = cycle.index(min(cycle))
        return [*cycle[start:], *cycle[:start]]


def derivation_graph(blueprint: Blueprint) -> DerivationGraph:
    """Edges from what is read to the derived or copied field that reads it."""
    graph = DerivationGraph()
    for invariant in blueprint.invariants:
        if isinstance(invariant, DerivedValue):
            node = (invariant.entity, invariant.derive)
            graph.nodes[node] = None
            graph.derived.add(node)
            for read in invariant_reads(blueprint, invariant):
                if read != node:
                    graph.add_edge(read, node)
    parent_of = {(r.child, r.field): r.parent for r in blueprint.relations}
    for entity in blueprint.entities:
        for spec in entity.fields:
            if spec.generator is not None and spec.generator.copy_from is not None:
                ref, parent_field = spec.generator.copy_from.split(".")
                parent = parent_of.get((entity.name, ref))
                if parent is not None:
                    graph.add_edge((parent, parent_field), (entity.name, spec.name))
                    graph.copied.add((entity.name, spec.name))
    return graph


def derivation_order(blueprint: Blueprint) -> list[Node]:
    """Derived fields, and copied fields downstream of one, each after everything it reads.

    Raises DerivationCycleError when they read each other in a cycle.
    """
    graph = derivation_graph(blueprint)
    order = ordered_by_edges(graph.nodes, graph.edges)
    if order is None:
        raise DerivationCycleError(graph.cycle())
    downstream = reached_from(graph.derived, graph.edges)
    return [node for node in order if node in downstream and (node in graph.derived or node in graph.copied)]

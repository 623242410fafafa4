"""In which order derived values and the copies that read them are computed."""

from __future__ import annotations

from typing import assert_never

import networkx as nx

from envforge.errors import EnvforgeError
from envforge.ir.blueprint import Blueprint
from envforge.ir.expressions import compile_expression
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


def derivation_graph(blueprint: Blueprint) -> nx.DiGraph:
    """Edges from what is read to the derived or copied field that reads it."""
    graph = nx.DiGraph()
    for invariant in blueprint.invariants:
        if isinstance(invariant, DerivedValue):
            node = (invariant.entity, invariant.derive)
            graph.add_node(node, derived=True)
            graph.add_edges_from((read, node) for read in invariant_reads(blueprint, invariant) if read != node)
    parent_of = {(r.child, r.field): r.parent for r in blueprint.relations}
    for entity in blueprint.entities:
        for field in entity.fields:
            if field.generator is not None and field.generator.copy_from is not None:
                ref, parent_field = field.generator.copy_from.split(".")
                parent = parent_of.get((entity.name, ref))
                if parent is not None:
                    graph.add_edge((parent, parent_field), (entity.name, field.name))
                    graph.nodes[(entity.name, field.name)]["copied"] = True
    return graph


def derivation_order(blueprint: Blueprint) -> list[Node]:
    """Derived fields, and copied fields downstream of one, each after everything it reads.

    Raises DerivationCycleError when they read each other in a cycle.
    """
    graph = derivation_graph(blueprint)
    try:
        order = list(nx.lexicographical_topological_sort(graph))
    except nx.NetworkXUnfeasible:
        cycle = min(nx.simple_cycles(graph), key=lambda nodes: (len(nodes), sorted(nodes)))
        start = cycle.index(min(cycle))
        raise DerivationCycleError([*cycle[start:], *cycle[:start]]) from None
    derived = {node for node, data in graph.nodes(data=True) if data.get("derived")}
    downstream = set(derived).union(*(nx.descendants(graph, node) for node in derived))
    return [node for node in order if node in downstream and (node in derived or graph.nodes[node].get("copied"))]

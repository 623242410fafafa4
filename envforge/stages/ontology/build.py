"""Resolve a blueprint into an ontology: keys, plurals, distances, creation order."""

from __future__ import annotations

import networkx as nx

from envforge.ir.blueprint import Blueprint
from envforge.ir.naming import plural_of
from envforge.ir.ontology import Ontology, OntologyEntity, OntologyRelation
from envforge.ir.tables import key_field


def build_ontology(blueprint: Blueprint) -> Ontology:
    links = nx.Graph()
    links.add_nodes_from(entity.name for entity in blueprint.entities)
    links.add_edges_from((relation.child, relation.parent) for relation in blueprint.relations)
    distance = nx.single_source_shortest_path_length(links, blueprint.person)

    # Parents before children: every required link, and every optional link that adds no cycle, so
    # optional references can point at rows that already exist. Ties keep blueprint order.
    dependencies = nx.DiGraph()
    position = {entity.name: index for index, entity in enumerate(blueprint.entities)}
    dependencies.add_nodes_from(position)
    links = sorted(blueprint.relations, key=lambda relation: not relation.required)
    for relation in links:
        if relation.parent == relation.child:
            continue
        dependencies.add_edge(relation.parent, relation.child)
        if not relation.required and not nx.is_directed_acyclic_graph(dependencies):
            dependencies.remove_edge(relation.parent, relation.child)
    order = list(nx.lexicographical_topological_sort(dependencies, key=position.__getitem__))

    entities = {
        entity.name: OntologyEntity(
            name=entity.name,
            plural=plural_of(entity),
            description=entity.description,
            key=key_field(entity).name,
            fields=entity.fields,
            is_person=entity.name == blueprint.person,
            distance=distance[entity.name],
        )
        for entity in blueprint.entities
    }
    relations = [
        OntologyRelation(
            name=relation.name,
            child=relation.child,
            field=relation.field,
            parent=relation.parent,
            cardinality=relation.cardinality,
            required=relation.required,
            description=relation.description,
        )
        for relation in blueprint.relations
    ]
    return Ontology(
        domain=blueprint.domain,
        person=blueprint.person,
        entities=[entities[name] for name in order],
        relations=relations,
    )

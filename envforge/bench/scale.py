"""The package's domain rebuilt in memory at a chosen number of rows, for the rows of `envforge bench` that must
show a cost does not grow with the state (verify, the gate)."""

from __future__ import annotations

from dataclasses import dataclass

from envforge.ir.blueprint import Blueprint
from envforge.ir.ontology import Ontology
from envforge.pipeline.dag import GenerateConfig
from envforge.runtime.environment import Environment
from envforge.stages.ontology.build import build_ontology
from envforge.stages.state.build import build_state
from envforge.stages.toolgraph.build import build_toolgraph


@dataclass(frozen=True)
class ScaledDomain:
    """One environment of the package's blueprint seeded with `rows` rows in total, never written to disk."""

    rows: int
    ontology: Ontology
    env: Environment


def build_domain(blueprint: Blueprint, rows: int, seed: int) -> ScaledDomain:
    """A package's blueprint through the ontology, toolgraph and state stages' builds, at `rows` rows."""
    config = GenerateConfig(seed=seed, rows=rows)
    ontology = build_ontology(blueprint)
    graph = build_toolgraph(blueprint, ontology)
    database, _ = build_state(blueprint, ontology, rows=config.rows, seed=config.seed)
    return ScaledDomain(rows, ontology, Environment(blueprint, graph, database, ""))

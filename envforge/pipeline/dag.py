"""Stage declarations and the DAG they form, validated when the module is imported."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TypeVar

import networkx as nx
from pydantic import Field

from envforge.errors import PipelineError
from envforge.ir.base import IRModel
from envforge.pipeline.artifacts import Artifact

DEFAULT_ROWS = 1000
MAX_ROWS = 1_000_000
DEFAULT_TASKS = 150
MAX_TASKS = 5000


class GenerateConfig(IRModel):
    """User knobs of one generation run."""

    seed: int = Field(default=0, ge=0)
    """Seed of every random choice; same blueprint + seed gives a byte-identical package."""
    rows: int = Field(default=DEFAULT_ROWS, ge=10, le=MAX_ROWS)
    """Seed rows across all tables."""
    tasks: int = Field(default=DEFAULT_TASKS, ge=1, le=MAX_TASKS)
    """Accepted tasks wanted in the package."""


ArtifactT = TypeVar("ArtifactT", bound=Artifact)
BuildFn = Callable[[Mapping[str, Artifact], GenerateConfig], Artifact]


@dataclass(frozen=True)
class Stage:
    """One node of the DAG: `build(inputs, config) -> output`."""

    name: str
    version: int
    """Bump when the stage's output changes for the same inputs; invalidates cached outputs."""
    inputs: tuple[str, ...]
    output: type[Artifact]
    build: BuildFn
    config_fields: tuple[str, ...] = ()
    """Config fields the output depends on (part of the cache key)."""
    fingerprint: Callable[[], str] | None = None
    """A hash of anything else the output depends on (files shipped with envforge, e.g. app templates)."""


def build_dag(stages: list[Stage], roots: tuple[str, ...]) -> list[Stage]:
    """Validate the stages as a DAG over `roots` (inputs made outside it); return them in a stable order."""
    names = [*roots, *(stage.name for stage in stages)]
    if len(set(names)) != len(names):
        raise PipelineError(f"duplicate stage names in {names}")
    graph = nx.DiGraph()
    position = {name: index for index, name in enumerate(names)}
    graph.add_nodes_from(names)
    fields = set(GenerateConfig.model_fields)
    for stage in stages:
        for needed in stage.inputs:
            if needed not in position:
                raise PipelineError(f"stage '{stage.name}' needs unknown stage '{needed}'")
            graph.add_edge(needed, stage.name)
        unknown = set(stage.config_fields) - fields
        if unknown:
            raise PipelineError(f"stage '{stage.name}' depends on unknown config fields {sorted(unknown)}")
    if not nx.is_directed_acyclic_graph(graph):
        raise PipelineError(f"stages form a cycle: {nx.find_cycle(graph)}")
    by_name = {stage.name: stage for stage in stages}
    order = nx.lexicographical_topological_sort(graph, key=position.__getitem__)
    return [by_name[name] for name in order if name in by_name]


def need(inputs: Mapping[str, Artifact], name: str, kind: type[ArtifactT]) -> ArtifactT:
    """The input artifact `name`, checked to be of the type the stage expects."""
    artifact = inputs.get(name)
    if not isinstance(artifact, kind):
        raise PipelineError(f"input '{name}' is {type(artifact).__name__}, expected {kind.__name__}")
    return artifact

"""Stages, their typed inputs, the run's config, and the check that a list of stages forms a DAG."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from envforge.errors import PipelineError
from envforge.ir.base import IRModel
from envforge.ir.row_budget import DEFAULT_MAX_ROWS
from envforge.ir.synthesis import ReviewConfig
from envforge.pipeline.artifacts import Artifact

DEFAULT_ROWS = 1000
MAX_ROWS = 1_000_000
DEFAULT_TASKS = 150
MAX_TASKS = 5000
REVIEW_SPARES = 2
"""With an LLM review, the gate accepts this many times the wanted tasks: spares for the review to drop."""


class GenerateConfig(IRModel):
    """User knobs of one generation run."""

    seed: int = Field(default=0, ge=0)
    """Seed of every random choice; same blueprint + seed gives a byte-identical package."""
    rows: int = Field(default=DEFAULT_ROWS, ge=10)
    """Seed rows across all tables, besides the catalogues' declared ones."""
    max_rows: int = Field(default=DEFAULT_MAX_ROWS, ge=1)
    """The most rows a run seeds, catalogues included: a run asking for more is refused as its blueprint loads."""
    tasks: int = Field(default=DEFAULT_TASKS, ge=1, le=MAX_TASKS)
    """Accepted tasks wanted in the package."""
    review: ReviewConfig | None = None
    """An LLM review of the gate's tasks (`generate --from-description`); None in procedural runs."""

    @property
    def gated_tasks(self) -> int:
        """Tasks the verifier gate accepts: the wanted count, plus spares when a review may drop some."""
        return min(MAX_TASKS, self.tasks * REVIEW_SPARES) if self.review is not None else self.tasks


CONFIG_NAMES = {
    *GenerateConfig.model_fields,
    *(name for name, v in vars(GenerateConfig).items() if isinstance(v, property)),
}
"""What a stage may list in `config_fields`."""


class StageInputs(BaseModel):
    """A stage's inputs: each field is named for the stage that makes it and typed as that stage's output."""

    model_config = ConfigDict(extra="forbid", frozen=True)


InputsT = TypeVar("InputsT", bound=StageInputs)
OutputT = TypeVar("OutputT", bound=Artifact)


@dataclass(frozen=True)
class Stage(Generic[InputsT, OutputT]):
    """One node of the DAG: `build(inputs, config) -> output`, its inputs declared once, as a typed model."""

    name: str
    version: int
    """Bump when the stage's output changes for the same inputs; invalidates cached outputs."""
    inputs: type[InputsT]
    output: type[OutputT]
    build: Callable[[InputsT, GenerateConfig], OutputT]
    config_fields: tuple[str, ...] = ()
    """Config fields (or properties) the output depends on (part of the cache key)."""
    fingerprint: Callable[[], str] | None = None
    """A hash of anything else the output depends on (files shipped with envforge, e.g. app templates)."""
    aside: bool = False
    """The build mostly waits on processes of its own: where this process may use a second core, the runner builds
    it on a thread while the stages after it go on (see `pipeline.runner`)."""
    stand_in: Callable[[InputsT], OutputT] | None = None
    """What the output most likely is, as far as the stages that `reads` it look (every tool passing), made at
    once from the inputs: the stages after an `aside` build may start on it."""
    reads: Mapping[str, Callable[[Any], object]] = field(default_factory=dict)
    """Of an input, what the build reads when that is less than all of it (of `tooltests`, the admitted tools): a
    build on the input's `stand_in` stands if the real input reads the same."""

    @property
    def input_names(self) -> tuple[str, ...]:
        return tuple(self.inputs.model_fields)

    def run(self, artifacts: Mapping[str, Artifact], config: GenerateConfig) -> OutputT:
        return self.build(self.inputs(**{name: artifacts[name] for name in self.input_names}), config)


AnyStage = Stage[Any, Any]


def declare_stage(
    name: str,
    version: int,
    build: Callable[[InputsT, GenerateConfig], OutputT],
    *,
    config_fields: tuple[str, ...] = (),
    fingerprint: Callable[[], str] | None = None,
    aside: bool = False,
    stand_in: Callable[[InputsT], OutputT] | None = None,
    reads: Mapping[str, Callable[[Any], object]] | None = None,
) -> Stage[InputsT, OutputT]:
    """A stage whose inputs and output are the types `build` is annotated with: declared once, where it is used."""
    hints = typing.get_type_hints(build)
    first = next(iter(inspect.signature(build).parameters))
    return Stage(
        name,
        version,
        hints[first],
        hints["return"],
        build,
        config_fields,
        fingerprint,
        aside,
        stand_in,
        dict(reads or {}),
    )


def build_dag(stages: list[AnyStage], roots: Mapping[str, type[Artifact]]) -> list[AnyStage]:
    """Validate the stages as a DAG over `roots` (artifacts made outside it); return them in a stable order.

    Each input must name a root or a stage, and be typed as exactly what that root or stage makes."""
    names = [*roots, *(stage.name for stage in stages)]
    if len(set(names)) != len(names):
        raise PipelineError(f"duplicate stage names in {names}")
    made: dict[str, type[Artifact]] = {**roots, **{stage.name: stage.output for stage in stages}}
    import networkx as nx  # here: the commands build a GenerateConfig as they start, and networkx is slow to import

    graph = nx.DiGraph()
    position = {name: index for index, name in enumerate(names)}
    graph.add_nodes_from(names)
    for stage in stages:
        hints = typing.get_type_hints(stage.inputs)
        for needed in stage.input_names:
            if needed not in made:
                raise PipelineError(f"stage '{stage.name}' needs unknown stage '{needed}'")
            if hints[needed] is not made[needed]:
                raise PipelineError(
                    f"stage '{stage.name}' takes input '{needed}' as {hints[needed].__name__}, "
                    f"but '{needed}' makes {made[needed].__name__}"
                )
            graph.add_edge(needed, stage.name)
        unknown = set(stage.config_fields) - CONFIG_NAMES
        if unknown:
            raise PipelineError(f"stage '{stage.name}' depends on unknown config fields {sorted(unknown)}")
        unread = set(stage.reads) - set(stage.input_names)
        if unread:
            raise PipelineError(
                f"stage '{stage.name}' reads part of {sorted(unread)}, which it does not take as inputs"
            )
    if not nx.is_directed_acyclic_graph(graph):
        raise PipelineError(f"stages form a cycle: {nx.find_cycle(graph)}")
    by_name = {stage.name: stage for stage in stages}
    order = nx.lexicographical_topological_sort(graph, key=position.__getitem__)
    return [by_name[name] for name in order if name in by_name]

"""The pass over the verifiers stage's output: paraphrase each accepted task, then check it across the barrier.

Runs after the gate, on the gate's accepted tasks in order, until enough agree: no call is spent on a task
the gate drops or the package does not need. The verifiers stage is asked for spare tasks (see `run.py`)
so barrier drops are backfilled, as the gate backfills its own drops.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from envforge.ir.blueprint import Blueprint, PersonaSpec
from envforge.ir.synthesis import TaskReview
from envforge.ir.tasks import TaskSpec
from envforge.ir.toolspec import ToolGraph
from envforge.llm import LLMClient
from envforge.runtime.environment import Environment
from envforge.runtime.session import Session
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.verifiers.artifact import VerifierArtifact
from envforge.stages.verifiers.emit import render_verifier
from envforge.synthesis.barrier import Schemas, check_task
from envforge.synthesis.calls import JsonMode
from envforge.synthesis.facts import RowIndex, task_facts
from envforge.synthesis.paraphrase import paraphrase

BARRIER_DROP = "barrier_disagreement"


def index_rows(blueprint: Blueprint, graph: ToolGraph, state: StateArtifact) -> RowIndex:
    env = Environment(blueprint, graph, state.database, "")
    session = Session(env)
    try:
        by_entity = {name: session.rows(name) for name in env.entities}
    finally:
        session.close()
    by_key = {str(row[env.entities[name].key]): row for name, rows in by_entity.items() for row in rows}
    return RowIndex(by_key=by_key, by_entity=by_entity)


@dataclass
class Reviewer:
    client: LLMClient
    blueprint: Blueprint
    graph: ToolGraph
    rows: RowIndex
    mode: JsonMode
    concurrency: int = 4
    _limit: asyncio.Semaphore | None = field(default=None, init=False)

    def __post_init__(self) -> None:
        self.schemas = Schemas.of(self.blueprint, self.graph.tools)

    def persona(self, name: str) -> PersonaSpec | None:
        return next((persona for persona in self.blueprint.personas if persona.name == name), None)

    async def review(self, task: TaskSpec) -> tuple[TaskSpec, TaskReview]:
        """The task as shipped (its instruction possibly reworded) and what the review found."""
        if self._limit is None:
            self._limit = asyncio.Semaphore(self.concurrency)
        async with self._limit:
            facts = task_facts(task, self.rows)
            rewording = await paraphrase(self.client, task, self.persona(task.scenario.persona), facts, self.mode)
        final = task.model_copy(update={"instruction": rewording.instruction})
        async with self._limit:
            verdict = await check_task(self.client, final, self.schemas, self.rows, self.mode)
        return final, TaskReview(
            task_id=task.id,
            paraphrased=rewording.paraphrased,
            paraphrase_problem=rewording.problem or "",
            barrier_agreed=verdict.agreed,
            barrier_claim=verdict.claim,
            barrier_reason=verdict.reason,
        )


async def review_tasks(reviewer: Reviewer, accepted: list[TaskSpec], wanted: int) -> list[tuple[TaskSpec, TaskReview]]:
    """Review accepted tasks in order, a batch of the still-missing count at a time, until `wanted` agree."""
    reviewed: list[tuple[TaskSpec, TaskReview]] = []
    agreed = 0
    position = 0
    while agreed < wanted and position < len(accepted):
        batch = accepted[position : position + wanted - agreed]
        position += len(batch)
        results = await asyncio.gather(*(reviewer.review(task) for task in batch))
        reviewed.extend(results)
        agreed += sum(review.barrier_agreed for _, review in results)
    return reviewed


def apply_reviews(
    verified: VerifierArtifact, reviewed: list[tuple[TaskSpec, TaskReview]], wanted: int
) -> VerifierArtifact:
    """The verifiers artifact the package is built from: reworded tasks, barrier drops as gate failures, and
    nothing past the task that completed the count (the gate would not have reached it)."""
    by_id = {task.id: (task, review) for task, review in reviewed}
    results = list(verified.results)
    kept = [task for task, review in reviewed if review.barrier_agreed]
    if len(kept) >= wanted and reviewed:
        last = max(index for index, result in enumerate(results) if result.task_id in by_id)
        results = results[: last + 1]
    shipped = []
    for result in results:
        found = by_id.get(result.task_id)
        if found is None or found[1].barrier_agreed:
            shipped.append(result)
        else:
            reason = f"{BARRIER_DROP}: {found[1].barrier_reason}"
            shipped.append(result.model_copy(update={"accepted": False, "reason": reason}))
    return VerifierArtifact(accepted=kept, sources={task.id: render_verifier(task) for task in kept}, results=shipped)

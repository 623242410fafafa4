"""An LLM writes a blueprint in small structured steps; the loader validates it; errors go back to the step.

Steps: domain -> entities -> which entity is the user -> the columns of each entity -> links -> actions (from
a menu) -> personas.
Each answer is grammar-constrained JSON (see `calls.py`) and is checked again here against the same schema,
since not every endpoint enforces one. The assembled blueprint goes through the same
loader as a hand-written YAML file; the first error is sent back to the step that caused it, and only
that step and the steps whose questions depend on it are asked again. After `repair_rounds` rounds the
draft is saved for inspection and the run stops with one line.
"""

from __future__ import annotations

import asyncio
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from envforge.errors import BlueprintError, UserInputError
from envforge.files import write_file_atomic
from envforge.hashing import hash_json
from envforge.ir.blueprint import Blueprint
from envforge.ir.loading import load_blueprint_text
from envforge.llm import LLMClient
from envforge.synthesis import prompts
from envforge.synthesis.assemble import build_blueprint, fields_step, knowable_fields, sketch_entities
from envforge.synthesis.calls import TEMPERATURE, JsonMode, ask_json
from envforge.synthesis.drafts import DraftError
from envforge.synthesis.menu import actions_schema
from envforge.synthesis.options import DEFAULT_REPAIR_ROUNDS
from envforge.synthesis.prompts import Message
from envforge.synthesis.schemas import (
    JSONSchema,
    domain_schema,
    entities_schema,
    fields_schema,
    links_schema,
    person_schema,
    personas_schema,
)

log = logging.getLogger(__name__)

MAX_TOKENS = 700
REPAIR_TEMPERATURE = 0.8


class BlueprintRejectedError(UserInputError):
    """The model's blueprint is still invalid after every repair round."""


@dataclass(frozen=True)
class Repair:
    """One error fed back to a step."""

    step: str
    error: str


@dataclass(frozen=True)
class WrittenBlueprint:
    blueprint: Blueprint
    text: str
    """The accepted blueprint as YAML, as validated."""
    steps: int
    """Questions asked (a repaired step counts once per answer)."""
    repairs: list[Repair]
    notes: list[str]
    """Repetitions dropped while assembling."""


@dataclass
class _Step:
    name: str
    question: list[Message]
    schema: JSONSchema
    followup: list[Message] = field(default_factory=list)
    """The last rejected answer and the error, when the step is being repaired."""
    attempt: int = 0
    """Repairs of this step so far: a repair samples (a greedy model would repeat its mistake)."""
    answer: dict[str, Any] | None = None
    content: str = ""
    failure: str | None = None
    """Why the last answer was refused before assembly (not JSON, or not of the schema)."""


class BlueprintWriter:
    """Asks the model step by step, assembles, validates, repairs."""

    def __init__(
        self,
        client: LLMClient,
        description: str,
        *,
        repair_rounds: int = DEFAULT_REPAIR_ROUNDS,
        drafts: Path,
        mode: JsonMode = "vllm",
        max_tokens: int = MAX_TOKENS,
    ) -> None:
        self.client = client
        self.description = description
        self.repair_rounds = repair_rounds
        self.drafts = drafts
        self.mode = mode
        self.max_tokens = max_tokens
        self.steps: dict[str, _Step] = {}
        self.asked = 0

    # --- the plan: which question each step asks, given the answers so far -----------------------

    def _plan(self, answers: dict[str, Any]) -> list[tuple[str, list[Message], JSONSchema]]:
        """The steps whose questions the answers so far determine, in order."""
        plan = [
            ("domain", prompts.domain_step(self.description), domain_schema()),
            ("entities", prompts.entities_step(self.description), entities_schema()),
        ]
        if "entities" not in answers:
            return plan
        names = [sketch.name for sketch in sketch_entities({"entities": answers["entities"]})]
        plan.append(("person", prompts.person_step(names), person_schema(names)))
        if "person" not in answers:
            return plan
        sketches = sketch_entities({"entities": answers["entities"], "person": answers["person"]})
        person, others = sketches[0].name, sketches[1:]
        plan += [(fields_step(sketch.name), prompts.fields_step(sketch), fields_schema()) for sketch in sketches]
        plan.append(("links", prompts.links_step(person, others), links_schema(person, [s.name for s in others])))
        if any(name not in answers for name, _, _ in plan):
            return plan
        full = sketch_entities(answers)
        knowable = knowable_fields()
        plan.append(("actions", prompts.actions_step(full), actions_schema(full)))
        plan.append(("personas", prompts.personas_step(person, knowable), personas_schema(knowable)))
        return plan

    # --- asking ------------------------------------------------------------------------------------

    async def _ask(self, step: _Step) -> None:
        self.asked += 1
        messages = [prompts.system(), *step.question, *step.followup]
        name = step.name.replace(":", "_")
        answer = await ask_json(
            self.client,
            messages,
            step.schema,
            name=name,
            mode=self.mode,
            max_tokens=self.max_tokens,
            temperature=REPAIR_TEMPERATURE if step.attempt else TEMPERATURE,
            sample=step.attempt,
        )
        step.content, step.answer, step.failure = answer.content, answer.value, answer.failure

    async def _answers(self) -> dict[str, Any]:
        """Ask every step whose question is new or changed (independent ones at once); keep the others."""
        answers: dict[str, Any] = {}
        while True:
            todo: list[_Step] = []
            for name, question, schema in self._plan(answers):
                if name in answers:
                    continue
                step = self.steps.get(name)
                if step is None or step.question != question or step.schema != schema:
                    step = _Step(name, question, schema)
                    self.steps[name] = step
                todo.append(step)
            if not todo:
                return answers
            await asyncio.gather(*(self._ask(step) for step in todo if step.answer is None and step.failure is None))
            for step in todo:
                if step.failure is not None:
                    raise DraftError(step.name, step.failure)
                answers[step.name] = step.answer

    # --- validating and repairing ----------------------------------------------------------------

    def _validate(self, answers: dict[str, Any], label: str) -> tuple[Blueprint, str, list[str]]:
        notes: list[str] = []
        text = yaml.safe_dump(build_blueprint(answers, notes), sort_keys=False, allow_unicode=True, width=100)
        return load_blueprint_text(text, label), text, notes

    async def write(self) -> WrittenBlueprint:
        repairs: list[Repair] = []
        label = str(self._draft_path())
        while True:
            answers: dict[str, Any] = {}
            try:
                answers = await self._answers()
                blueprint, text, notes = self._validate(answers, label)
                return WrittenBlueprint(blueprint, text, self.asked, repairs, notes)
            except DraftError as exc:
                step, error, shown = exc.step, exc.message, f"{exc.step}: {exc.message}"
            except BlueprintError as exc:
                step, error, shown = _blame(exc.path, answers), exc.detail, str(exc)
            log.info("blueprint step %s: %s", step, error)
            if len(repairs) >= self.repair_rounds:
                saved = self._save_draft(answers)
                raise BlueprintRejectedError(
                    f"the LLM's blueprint is still invalid after {len(repairs)} repair rounds: {shown}; "
                    f"its last draft is saved in {saved}"
                )
            repairs.append(Repair(step, error))
            self._send_back(step, error)

    def _send_back(self, name: str, error: str) -> None:
        """Ask `name` again with its last answer and the error; later steps follow from the new answer."""
        step = self.steps.get(name) or self.steps["entities"]
        step.attempt += 1
        step.followup = [{"role": "assistant", "content": step.content}, prompts.user(prompts.repair(error))]
        step.answer = None
        step.failure = None

    def _draft_path(self) -> Path:
        return self.drafts / f"blueprint-{hash_json([self.client.model, self.description])[:12]}.yaml"

    def _save_draft(self, answers: dict[str, Any]) -> Path:
        try:
            draft: dict[str, Any] = build_blueprint(answers)
        except (DraftError, KeyError):
            draft = {"step_answers": {name: step.answer or step.content for name, step in self.steps.items()}}
        path = self._draft_path()
        write_file_atomic(path, yaml.safe_dump(draft, sort_keys=False, allow_unicode=True, width=100).encode())
        return path


BLAMED = {"person": "person", "relations": "links", "actions": "actions", "personas": "personas"}
"""Top-level blueprint keys -> the step whose answer fills them (the rest come from the domain step)."""


def _blame(path: str, answers: dict[str, Any]) -> str:
    """The step whose answer put the faulty value at `path` of the assembled blueprint."""
    head = re.split(r"[.\[]", path, maxsplit=1)[0]
    if head == "entities" and path.startswith("entities["):
        index = int(path[len("entities[") : path.index("]")])
        rest = path[path.index("]") + 1 :]
        names = [sketch.name for sketch in sketch_entities(answers)]
        if rest.startswith(".fields") and index < len(names):
            return fields_step(names[index])
        return "entities" if rest.startswith(".name") else "links"
    return BLAMED.get(head, "domain")

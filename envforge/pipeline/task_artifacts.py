"""Artifacts of the task stages: candidate tasks, and accepted tasks with their verifiers."""

from __future__ import annotations

import json
from typing import Self

from envforge.ir.tasks import TaskSpec
from envforge.ir.verification import GateResult
from envforge.pipeline.artifacts import Artifact, dump_json


def dump_jsonl(tasks: list[TaskSpec]) -> bytes:
    """One task per line, keys sorted: the `tasks.jsonl` format."""
    return "".join(
        json.dumps(task.model_dump(mode="json"), sort_keys=True, ensure_ascii=False) + "\n" for task in tasks
    ).encode()


def load_jsonl(data: bytes) -> list[TaskSpec]:
    return [TaskSpec.model_validate_json(line) for line in data.decode().splitlines() if line.strip()]


class TaskSetArtifact(Artifact):
    """Candidate tasks, in the order the gate considers them."""

    requested: int
    found: dict[str, int]
    """Drafts of each kind found before choosing."""
    tasks: list[TaskSpec]

    def to_files(self) -> dict[str, bytes]:
        return {
            "tasks.jsonl": dump_jsonl(self.tasks),
            "tasks.json": dump_json({"requested": self.requested, "found": self.found}),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        meta = json.loads(files["tasks.json"])
        return cls(requested=meta["requested"], found=meta["found"], tasks=load_jsonl(files["tasks.jsonl"]))


class VerifierArtifact(Artifact):
    """Accepted tasks with their verifier sources, and the gate's result for every candidate."""

    accepted: list[TaskSpec]
    sources: dict[str, str]
    """Task id -> source of `verifiers/<id>.py`."""
    results: list[GateResult]

    def to_files(self) -> dict[str, bytes]:
        files = {f"verifiers/{task_id}.py": source.encode() for task_id, source in sorted(self.sources.items())}
        files["accepted.jsonl"] = dump_jsonl(self.accepted)
        files["gate.json"] = dump_json([result.model_dump(mode="json") for result in self.results])
        return files

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        sources = {
            name.removeprefix("verifiers/").removesuffix(".py"): data.decode()
            for name, data in files.items()
            if name.startswith("verifiers/")
        }
        results = [GateResult.model_validate(item) for item in json.loads(files["gate.json"])]
        return cls(accepted=load_jsonl(files["accepted.jsonl"]), sources=sources, results=results)

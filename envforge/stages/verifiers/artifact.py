"""The `verifiers` stage's output: accepted tasks with their verifiers, and the gate's result for every candidate."""

from __future__ import annotations

import json
from typing import Self

from envforge.files import dump_json
from envforge.ir.tasks import TaskSpec
from envforge.ir.verification import GateResult
from envforge.pipeline.artifacts import Artifact
from envforge.stages.tasks.artifact import dump_jsonl, load_jsonl


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

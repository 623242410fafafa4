"""The `tasks` stage's output: candidate tasks; and the `tasks.jsonl` format."""

from __future__ import annotations

import json
from typing import Self

from pydantic import Field

from envforge.files import dump_json
from envforge.ir.tasks import TaskSpec
from envforge.pipeline.artifacts import Artifact


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
    unreached: dict[str, str] = Field(default_factory=dict)
    """WRITE actions no candidate task uses -> why their attempts failed (the most common refusal)."""
    unexercised: dict[str, str] = Field(default_factory=dict)
    """Policies no candidate task hinges on -> why."""
    tasks: list[TaskSpec]

    def to_files(self) -> dict[str, bytes]:
        return {
            "tasks.jsonl": dump_jsonl(self.tasks),
            "tasks.json": dump_json(
                {
                    "requested": self.requested,
                    "found": self.found,
                    "unreached": self.unreached,
                    "unexercised": self.unexercised,
                }
            ),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        meta = json.loads(files["tasks.json"])
        return cls(
            requested=meta["requested"],
            found=meta["found"],
            unreached=meta.get("unreached", {}),
            unexercised=meta.get("unexercised", {}),
            tasks=load_jsonl(files["tasks.jsonl"]),
        )

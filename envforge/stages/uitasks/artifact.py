"""The `uitasks` stage's output: the tasks posed in each app, and those that could not be."""

from __future__ import annotations

import json
from typing import Self

from envforge.files import dump_json
from envforge.ir.uitasks import UI_DROPPED_FILE, UI_TASKS_FILE, UIDrop, UITask
from envforge.pipeline.artifacts import Artifact


class UITasksArtifact(Artifact):
    """`apps/ui_tasks.jsonl` (one UI task per line) and `apps/ui_dropped.json` (the tasks not posed, and why)."""

    tasks: list[UITask]
    dropped: list[UIDrop]

    def to_files(self) -> dict[str, bytes]:
        lines = "".join(
            json.dumps(task.model_dump(mode="json"), sort_keys=True, ensure_ascii=False) + "\n" for task in self.tasks
        )
        return {
            UI_TASKS_FILE: lines.encode(),
            UI_DROPPED_FILE: dump_json([drop.model_dump(mode="json") for drop in self.dropped]),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        tasks = [
            UITask.model_validate_json(line) for line in files[UI_TASKS_FILE].decode().splitlines() if line.strip()
        ]
        dropped = [UIDrop.model_validate(item) for item in json.loads(files[UI_DROPPED_FILE])]
        return cls(tasks=tasks, dropped=dropped)

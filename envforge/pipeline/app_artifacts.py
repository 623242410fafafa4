"""The apps stage's artifact: the screens spec and the app assets, as they land in the package under `apps/`."""

from __future__ import annotations

import json
from typing import Self

from envforge.ir.apps import AppSpec
from envforge.ir.uitasks import UI_DROPPED_FILE, UI_TASKS_FILE, UIDrop, UITask
from envforge.pipeline.artifacts import Artifact, dump_json

SPEC = "apps/app.json"
UI_TASKS = UI_TASKS_FILE
UI_DROPPED = UI_DROPPED_FILE


class AppsArtifact(Artifact):
    """`apps/app.json` plus `apps/web/...` and `apps/phone/...` (templates and static files)."""

    spec: AppSpec
    assets: dict[str, bytes]
    """Path under the package (e.g. `apps/web/list.html`) -> bytes."""

    def to_files(self) -> dict[str, bytes]:
        return {SPEC: dump_json(self.spec.model_dump(mode="json")), **self.assets}

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        assets = {name: data for name, data in files.items() if name != SPEC}
        return cls(spec=AppSpec.model_validate_json(files[SPEC]), assets=assets)


class UITasksArtifact(Artifact):
    """`apps/ui_tasks.jsonl` (one UI task per line) and `apps/ui_dropped.json` (the tasks not posed, and why)."""

    tasks: list[UITask]
    dropped: list[UIDrop]

    def to_files(self) -> dict[str, bytes]:
        lines = "".join(
            json.dumps(task.model_dump(mode="json"), sort_keys=True, ensure_ascii=False) + "\n" for task in self.tasks
        )
        return {
            UI_TASKS: lines.encode(),
            UI_DROPPED: dump_json([drop.model_dump(mode="json") for drop in self.dropped]),
        }

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        tasks = [UITask.model_validate_json(line) for line in files[UI_TASKS].decode().splitlines() if line.strip()]
        dropped = [UIDrop.model_validate(item) for item in json.loads(files[UI_DROPPED])]
        return cls(tasks=tasks, dropped=dropped)

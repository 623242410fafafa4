"""The `tooltests` stage's output: which tools passed their tests."""

from __future__ import annotations

import json
from typing import Self

from envforge.files import dump_json
from envforge.ir.tooltests import ToolTestReport
from envforge.pipeline.artifacts import Artifact


class ToolTestArtifact(Artifact):
    """Which tools passed their tests, and the failing call of each one that did not."""

    report: ToolTestReport

    def to_files(self) -> dict[str, bytes]:
        return {"tooltests.json": dump_json(self.report.model_dump(mode="json"))}

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        return cls(report=ToolTestReport.model_validate(json.loads(files["tooltests.json"])))

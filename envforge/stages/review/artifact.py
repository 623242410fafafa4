"""The `review` stage's output: the gate's output as the package ships it, with the synthesis report if reviewed."""

from __future__ import annotations

from typing import Self

from envforge.files import dump_json
from envforge.ir.synthesis import SynthesisReport
from envforge.stages.verifiers.artifact import VerifierArtifact

SYNTHESIS = "synthesis.json"


class ReviewArtifact(VerifierArtifact):
    """Accepted tasks (reworded by the review, if any), their verifiers, and the gate's and review's results."""

    synthesis: SynthesisReport | None = None
    """What the LLM wrote and checked; None in procedural runs."""

    def to_files(self) -> dict[str, bytes]:
        files = super().to_files()
        if self.synthesis is not None:
            files[SYNTHESIS] = dump_json(self.synthesis.model_dump(mode="json"))
        return files

    @classmethod
    def from_files(cls, files: dict[str, bytes]) -> Self:
        reviewed = super().from_files(files)
        if SYNTHESIS not in files:
            return reviewed
        return reviewed.model_copy(update={"synthesis": SynthesisReport.model_validate_json(files[SYNTHESIS])})

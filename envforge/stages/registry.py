"""The one declaration of the generation DAG, assembled here rather than in `pipeline`, which knows no stage."""

from __future__ import annotations

from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import AnyStage, build_dag
from envforge.stages.apps.stage import STAGE as APPS
from envforge.stages.ontology.stage import STAGE as ONTOLOGY
from envforge.stages.package.stage import STAGE as PACKAGE
from envforge.stages.review.stage import TaskReviewer, review_stage
from envforge.stages.state.stage import STAGE as STATE
from envforge.stages.tasks.stage import STAGE as TASKS
from envforge.stages.toolgraph.stage import STAGE as TOOLGRAPH
from envforge.stages.tooltests.stage import STAGE as TOOLTESTS
from envforge.stages.uitasks.stage import STAGE as UITASKS
from envforge.stages.verifiers.stage import STAGE as VERIFIERS

ROOT = "blueprint"
"""The root artifact: the validated blueprint, made by the runner from the source file."""
ROOTS = {ROOT: BlueprintArtifact}


def pipeline_stages(reviewer: TaskReviewer | None = None) -> list[AnyStage]:
    """The stages in run order; `reviewer` is the LLM review service (`generate --from-description`)."""
    stages: list[AnyStage] = [
        ONTOLOGY,
        TOOLGRAPH,
        STATE,
        TOOLTESTS,
        TASKS,
        VERIFIERS,
        review_stage(reviewer),
        APPS,
        UITASKS,
        PACKAGE,
    ]
    return build_dag(stages, roots=ROOTS)


STAGES = pipeline_stages()
"""The procedural DAG, validated when the module is imported."""

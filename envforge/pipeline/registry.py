"""The one declaration of the generation DAG. New stages (tasks, verifiers, apps) register here."""

from __future__ import annotations

from envforge.pipeline.dag import Stage, build_dag
from envforge.stages.apps.stage import STAGE as APPS
from envforge.stages.ontology.stage import STAGE as ONTOLOGY
from envforge.stages.package.stage import STAGE as PACKAGE
from envforge.stages.state.stage import STAGE as STATE
from envforge.stages.tasks.stage import STAGE as TASKS
from envforge.stages.toolgraph.stage import STAGE as TOOLGRAPH
from envforge.stages.tooltests.stage import STAGE as TOOLTESTS
from envforge.stages.uitasks.stage import STAGE as UITASKS
from envforge.stages.verifiers.stage import STAGE as VERIFIERS

ROOT = "blueprint"
"""The root artifact: the validated blueprint, made by the runner from the source file."""

STAGES: list[Stage] = build_dag(
    [ONTOLOGY, TOOLGRAPH, STATE, TOOLTESTS, TASKS, VERIFIERS, APPS, UITASKS, PACKAGE], roots=(ROOT,)
)

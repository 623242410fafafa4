"""The `uitasks` stage: pose each accepted task in both apps, with a golden UI path proved over HTTP.

A path is kept only when, done on the live app, it makes the task's verifier pass, and the verifier fails
on the untouched initial state. The Chromium replay of the same paths is `envforge verify-ui`.
"""

from __future__ import annotations

from collections.abc import Mapping

from starlette.testclient import TestClient

from envforge.ir.tasks import TaskSpec, Transcript
from envforge.ir.uitasks import AppKind, UIDrop, UITask
from envforge.pipeline.app_artifacts import AppsArtifact, UITasksArtifact
from envforge.pipeline.artifacts import Artifact, BlueprintArtifact, StateArtifact, ToolGraphArtifact
from envforge.pipeline.dag import GenerateConfig, Stage, need
from envforge.pipeline.task_artifacts import VerifierArtifact
from envforge.runtime.apps.server import AppSite, app_templates, asset_loader
from envforge.runtime.environment import Environment
from envforge.runtime.tasks import VerifyFn, load_verifier
from envforge.stages.uitasks.paths import UnbuildableError, build_path
from envforge.stages.uitasks.wording import WordingError, ui_instruction
from envforge.text import humanize

APP_KINDS: tuple[AppKind, ...] = ("web", "phone")


def pose(
    site: AppSite, kind: AppKind, client: TestClient, task: TaskSpec, verify: VerifyFn, instruction: str
) -> UITask:
    """The UI task, or `UnbuildableError` when no path is built or the built one does not satisfy the verifier."""
    steps, episode, answer = build_path(site, kind, client, task)
    try:
        verdict = verify(episode.initial, episode.session.snapshot(), episode.transcript(answer))
        if not verdict.passed:
            raise UnbuildableError("verifier_failed", "; ".join(verdict.reasons) or "the verifier did not pass")
        if verify(episode.initial, episode.initial, Transcript()).passed:
            raise UnbuildableError("passes_untouched", "the verifier passes on the initial state")
    finally:
        site.episodes.close(episode.id)
    return UITask(task_id=task.id, app=kind, instruction=instruction, steps=steps, answers=task.kind == "read")


def build(inputs: Mapping[str, Artifact], config: GenerateConfig) -> UITasksArtifact:
    blueprint = need(inputs, "blueprint", BlueprintArtifact).blueprint
    graph = need(inputs, "toolgraph", ToolGraphArtifact).toolgraph
    state = need(inputs, "state", StateArtifact)
    verifiers = need(inputs, "verifiers", VerifierArtifact)
    apps = need(inputs, "apps", AppsArtifact)
    env = Environment(blueprint, graph, state.database, "")
    person = humanize(blueprint.person)
    tasks: list[UITask] = []
    dropped: list[UIDrop] = []
    for kind in APP_KINDS:
        site = AppSite(env, apps.spec, app_templates(asset_loader(apps.assets, kind)), None)
        with TestClient(site.app()) as client:
            for task in verifiers.accepted:
                try:
                    instruction = ui_instruction(task, blueprint.title, person)
                    verify = load_verifier(verifiers.sources[task.id], task.id)
                    tasks.append(pose(site, kind, client, task, verify, instruction))
                except UnbuildableError as error:
                    dropped.append(UIDrop(task_id=task.id, app=kind, reason=error.reason, detail=error.detail))
                except WordingError as error:
                    dropped.append(UIDrop(task_id=task.id, app=kind, reason="unworded", detail=str(error)))
    return UITasksArtifact(tasks=tasks, dropped=dropped)


STAGE = Stage(
    name="uitasks",
    version=1,
    inputs=("blueprint", "toolgraph", "state", "verifiers", "apps"),
    output=UITasksArtifact,
    build=build,
)

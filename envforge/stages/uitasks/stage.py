"""The `uitasks` stage: pose each accepted task in both apps, with a golden UI path proved over HTTP.

A path is kept only when, done on the live app, it makes the task's verifier pass, and the verifier fails
on the untouched initial state. The Chromium replay of the same paths is `envforge verify-ui`.
"""

from __future__ import annotations

from envforge.ir.tasks import RunHistory, TaskSpec, Transcript
from envforge.ir.uitasks import AppKind, UIDrop, UITask
from envforge.pipeline.artifacts import BlueprintArtifact
from envforge.pipeline.dag import GenerateConfig, StageInputs, declare_stage
from envforge.pipeline.progress import advance
from envforge.runtime.apps.local_client import LocalClient
from envforge.runtime.apps.server import AppSite, app_templates, asset_loader
from envforge.runtime.claims import environment_vocabulary
from envforge.runtime.environment import Environment
from envforge.runtime.tasks import VerifyFn, load_verifier
from envforge.stages.apps.artifact import AppsArtifact
from envforge.stages.state.artifact import StateArtifact
from envforge.stages.toolgraph.artifact import ToolGraphArtifact
from envforge.stages.uitasks.artifact import UITasksArtifact
from envforge.stages.uitasks.paths import UnbuildableError, build_path
from envforge.stages.uitasks.wording import WordingError, ui_instruction
from envforge.stages.verifiers.artifact import VerifierArtifact
from envforge.text import humanize

APP_KINDS: tuple[AppKind, ...] = ("web", "phone")


def pose(
    site: AppSite, kind: AppKind, client: LocalClient, task: TaskSpec, verify: VerifyFn, instruction: str
) -> UITask:
    """The UI task, or `UnbuildableError` when no path is built or the built one does not satisfy the verifier."""
    steps, episode, answer = build_path(site, kind, client, task)
    try:
        vocabulary = environment_vocabulary(site.pages.env)
        verdict = verify(episode.session.history(), episode.transcript(answer), vocabulary)
        if not verdict.passed:
            raise UnbuildableError("verifier_failed", "; ".join(verdict.reasons) or "the verifier did not pass")
        if verify(RunHistory(), Transcript(), vocabulary).passed:
            raise UnbuildableError("passes_untouched", "the verifier passes on the initial state")
    finally:
        site.episodes.close(episode.id)
    return UITask(task_id=task.id, app=kind, instruction=instruction, steps=steps, answers=task.kind == "read")


class UITaskInputs(StageInputs):
    blueprint: BlueprintArtifact
    toolgraph: ToolGraphArtifact
    state: StateArtifact
    verifiers: VerifierArtifact
    apps: AppsArtifact


def build(inputs: UITaskInputs, config: GenerateConfig) -> UITasksArtifact:
    blueprint, verifiers, apps = inputs.blueprint.blueprint, inputs.verifiers, inputs.apps
    env = Environment(blueprint, inputs.toolgraph.toolgraph, inputs.state.database, "")
    person = humanize(blueprint.person)
    plurals = {entity.name: humanize(entity.plural or entity.name + "s") for entity in blueprint.entities}
    tasks: list[UITask] = []
    dropped: list[UIDrop] = []
    total = len(APP_KINDS) * len(verifiers.accepted)
    loaded: dict[str, VerifyFn] = {}  # a task's verifier judges its paths in both apps: compiled once
    for kind in APP_KINDS:
        site = AppSite(env, apps.spec, app_templates(asset_loader(apps.assets, kind)), None)
        with LocalClient(site.app()) as client:
            for task in verifiers.accepted:
                advance(len(tasks) + len(dropped), total, "tasks tried in the apps")
                if task.forbidden:
                    # The right run refuses part of the request by a rule only policy.md states; a screen task
                    # has no policy to read, so it would only teach doing what is asked. A request a policy
                    # allows (an allowance) is done as asked, on screens too.
                    detail = f"hinges on {', '.join(task.policies)}, which the app does not show"
                    dropped.append(UIDrop(task_id=task.id, app=kind, reason="policy", detail=detail))
                    continue
                if any(reaction.changes for reaction in task.scenario.script):
                    detail = "the user changes a value once the agent names it; a screen task poses one request"
                    dropped.append(UIDrop(task_id=task.id, app=kind, reason="change_of_mind", detail=detail))
                    continue
                if task.expected_answer is not None and task.kind != "read":
                    detail = "asks a question once the write is done; a screen task poses one request"
                    dropped.append(UIDrop(task_id=task.id, app=kind, reason="question_after", detail=detail))
                    continue
                try:
                    instruction = ui_instruction(task, blueprint.title, person, plurals)
                    if task.id not in loaded:
                        loaded[task.id] = load_verifier(verifiers.sources[task.id], task.id)
                    verify = loaded[task.id]
                    tasks.append(pose(site, kind, client, task, verify, instruction))
                except UnbuildableError as error:
                    dropped.append(UIDrop(task_id=task.id, app=kind, reason=error.reason, detail=error.detail))
                except WordingError as error:
                    dropped.append(UIDrop(task_id=task.id, app=kind, reason="unworded", detail=str(error)))
    advance(total, total, "tasks tried in the apps")
    return UITasksArtifact(tasks=tasks, dropped=dropped)


STAGE = declare_stage("uitasks", 8, build)

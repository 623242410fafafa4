"""The shipped golden UI paths, done again over HTTP on the package's own apps (no browser needed).

Every UI task must name a task of tasks.jsonl, and its steps, done on a fresh episode, must make that
task's shipped verifier pass where the untouched state fails it: a CI without Chromium still learns
when an app or a verifier change breaks a path. `envforge verify-ui` is the same in a real browser.
"""

from __future__ import annotations

from envforge.ir.tasks import RunHistory, Transcript
from envforge.ir.uitasks import UITask
from envforge.runtime.apps.local_client import LocalClient
from envforge.runtime.apps.server import APPS, AppServer
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.episode import EnvPackage
from envforge.stages.uitasks.http_page import HttpPage, StepError
from envforge.validators.loaded_package import LoadedPackage
from envforge.validators.results import ConformanceError


def _replay(package: EnvPackage, server: AppServer, client: LocalClient, task: UITask) -> str | None:
    """None when the path passes its verifier and the untouched state fails it, else what went wrong."""
    episode = server.episodes.open_task(package.task(task.task_id))
    try:
        page = HttpPage(client, f"/e/{episode.token}/")
        answer = None
        for step in task.steps:
            answer = page.perform(step) or answer
        transcript = episode.transcript(answer if task.answers else None)
        verdict = package.verify(task.task_id, episode.session.history(), transcript)
        if not verdict.passed:
            return f"fails its verifier: {'; '.join(verdict.reasons)}"
        if package.verify(task.task_id, RunHistory(), Transcript()).passed:
            return "its verifier passes on the untouched state"
        return None
    except StepError as error:
        return str(error)
    finally:
        server.episodes.close(episode.id)


def check_ui_paths(package: LoadedPackage) -> str:
    env_package = package.env_package
    ui_tasks = load_ui_tasks(package.files)
    known = {task.id for task in package.tasks}
    problems = [
        f"{task.app} {task.task_id}: no such task in tasks.jsonl" for task in ui_tasks if task.task_id not in known
    ]
    sampled = {task.id for task in package.sampled}
    replayed = 0
    for kind in APPS:
        server = AppServer(env_package, kind)
        with LocalClient(server.app()) as client:
            for task in ui_tasks:
                if task.app == kind and task.task_id in sampled:
                    replayed += 1
                    problem = _replay(env_package, server, client, task)
                    if problem is not None:
                        problems.append(f"{kind} {task.task_id}: {problem}")
    if problems:
        raise ConformanceError("some golden UI paths fail on the apps", problems)
    return f"{replayed} golden UI paths (web and phone) done over HTTP pass their verifiers; the untouched state fails them"

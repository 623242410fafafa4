"""Golden UI paths replayed in headless Chromium: the check behind `envforge verify-ui`.

For every UI task: the verifier fails on the initial state, passes after the golden path is clicked
through in a real browser, and fails after a no-op run (the app opened, nothing done). Along the way no
page may log a console error, throw, or fail a request, and no success message may show after a step that
wrote nothing. One task of each app (one that picks a row in a form, where there is one) also leaves screenshots
of the app's main screens.
"""

from __future__ import annotations

import json
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from statistics import median
from typing import TYPE_CHECKING, Any, cast, get_args

from envforge.errors import UserInputError
from envforge.ir.apps import AppSpec
from envforge.ir.display import Display, Table
from envforge.ir.tasks import RunHistory, Transcript
from envforge.ir.uitasks import UI_DROPPED_FILE, AppKind, UIDrop, UIStep, UITask
from envforge.ir.verification import UIReplayApp, UIReplaySummary, ValidationReport
from envforge.package import update_package
from envforge.package.report import ui_summary
from envforge.runtime.apps.chromium import context_options, launched_chromium
from envforge.runtime.apps.replay import ReplayError, run_steps, watch
from envforge.runtime.apps.server import AppServer
from envforge.runtime.apps.threaded import serve_in_thread
from envforge.runtime.apps.uitasks import load_ui_tasks
from envforge.runtime.episode import EnvPackage, load_package
from envforge.runtime.episode_store import ServedEpisode
from envforge.runtime.opened_package import OpenedPackage, open_package
from envforge.stages.uitasks.artifact import UITasksArtifact
from envforge.validators.loaded_package import require_package

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

PROBLEMS_KEPT = 20
SCREENSHOTS = "report/screenshots"
SCREENS = ("home", "list", "detail", "form", "confirm", "done")


@dataclass
class ReplayOutcome:
    task: UITask
    reason: str | None = None
    """None when every check held; else a stable code (`golden_failed`, `step_failed`, `page_problems`, ...)."""
    detail: str = ""
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    toasts_without_writes: int = 0

    @property
    def passed(self) -> bool:
        return self.reason is None


def _screen_of(step: UIStep) -> str | None:
    """Which main screen a step opens, for the screenshots."""
    if step.target.startswith(("nav-", "home-")) and step.target != "nav-more":
        return "list"
    if step.target.startswith(("find-submit-", "row-")):
        return "detail"
    if step.target.startswith("action-"):
        return "form"
    if step.target == "submit":
        return "confirm"
    return None


class UIReplayer:
    """One app of one package, served on a local port and driven by one Chromium context."""

    def __init__(self, package: EnvPackage, app: AppKind, browser: Browser, base_url: str, server: AppServer) -> None:
        self.package = package
        self.app = app
        self.server = server
        self.base_url = base_url
        self.context = browser.new_context(**context_options(app))
        self.page: Page = self.context.new_page()
        self.problems = watch(self.page)

    def close(self) -> None:
        self.context.close()

    def _home(self, episode: ServedEpisode) -> None:
        self.page.goto(f"{self.base_url}/e/{episode.token}/", wait_until="load")

    def replay(self, task: UITask, shots: dict[str, Path] | None = None) -> ReplayOutcome:
        outcome = ReplayOutcome(task)
        episode = self.server.episodes.open_task(self.package.task(task.task_id))
        try:
            if self.package.verify(task.task_id, RunHistory(), Transcript()).passed:
                outcome.reason, outcome.detail = "passes_untouched", "the verifier passes on the initial state"
                return outcome
            self._golden(task, episode, outcome, shots)
            if outcome.passed:
                self._noop(task, episode, outcome)
        finally:
            self.server.episodes.close(episode.id)
        return outcome

    def _golden(
        self, task: UITask, episode: ServedEpisode, outcome: ReplayOutcome, shots: dict[str, Path] | None
    ) -> None:
        seen = len(self.problems)
        last_hash = episode.session.state_hash()

        def after(index: int, step: UIStep) -> None:
            nonlocal last_hash
            if step.navigates and self.page.get_by_test_id("flash").count():
                state = episode.session.state_hash()
                if state == last_hash:
                    outcome.toasts_without_writes += 1
                last_hash = state
            screen = _screen_of(step)
            if shots is not None and screen is not None and screen in shots and not shots[screen].exists():
                self.page.screenshot(path=str(shots[screen]), full_page=False)

        started = time.perf_counter()
        try:
            self._home(episode)
            if shots is not None:
                self.page.screenshot(path=str(shots["home"]))
            answer = run_steps(self.page, task.steps, after_step=after)
        except ReplayError as error:
            outcome.reason, outcome.detail = "step_failed", str(error)
            return
        finally:
            outcome.seconds = time.perf_counter() - started
        if shots is not None:
            self.page.screenshot(path=str(shots["done"]))
        outcome.problems = self.problems[seen:]
        transcript = episode.transcript(answer if task.answers else None)
        verdict = self.package.verify(task.task_id, episode.session.history(), transcript)
        if not verdict.passed:
            outcome.reason, outcome.detail = "golden_failed", "; ".join(verdict.reasons)
        elif outcome.problems:
            outcome.reason, outcome.detail = "page_problems", outcome.problems[0]
        elif outcome.toasts_without_writes:
            outcome.reason, outcome.detail = "toast_without_write", "a success message showed but no state changed"

    def _noop(self, task: UITask, episode: ServedEpisode, outcome: ReplayOutcome) -> None:
        episode.reset()
        self._home(episode)
        verdict = self.package.verify(task.task_id, episode.session.history(), Transcript())
        if verdict.passed:
            outcome.reason, outcome.detail = "passes_noop", "the verifier passes after a run that did nothing"


def spread(tasks: list[UITask], sample: int | None) -> list[UITask]:
    """An even spread of `sample` tasks (all of them without a sample)."""
    if sample is None or sample >= len(tasks):
        return tasks
    step = len(tasks) / sample
    return [tasks[int(index * step)] for index in range(sample)]


@contextmanager
def replayers(package: EnvPackage, apps: tuple[AppKind, ...]) -> Iterator[dict[AppKind, UIReplayer]]:
    """A served app and a Chromium context per app, for the block."""
    with launched_chromium() as browser, ExitStack() as stack:
        opened: dict[AppKind, UIReplayer] = {}
        for app in apps:
            server = AppServer(package, app)
            base_url = stack.enter_context(serve_in_thread(server.app()))
            opened[app] = UIReplayer(package, app, browser, base_url, server)
            stack.callback(opened[app].close)
        yield opened


def _first_form_picks(steps: list[UIStep], pickers: set[str]) -> bool:
    """The first form the steps open (the one the form screenshot shows) has a row picked in it."""
    targets = [step.target for step in steps]
    start = next((index for index, target in enumerate(targets) if target.startswith("action-")), len(targets))
    end = next((index for index in range(start, len(targets)) if targets[index] == "submit"), len(targets))
    return any(target in pickers for target in targets[start:end])


def _shot_task(tasks: list[UITask], spec: AppSpec) -> UITask | None:
    """The task whose screens the screenshots show: one whose first form picks a row where there is one (so the
    form screenshot shows a picker), else the first that changes something, else the first."""
    pickers = {f"field-{field.name}" for form in spec.actions for field in form.fields if field.input == "record"}
    writes = [task for task in tasks if not task.answers]
    picking = [task for task in writes if _first_form_picks(task.steps, pickers)]
    return next(iter(picking or writes or tasks), None)


def _replay_app(
    package: EnvPackage,
    app: AppKind,
    tasks: list[UITask],
    screenshots: Path | None,
    progress: Callable[[ReplayOutcome], None] | None,
) -> tuple[list[ReplayOutcome], str]:
    outcomes: list[ReplayOutcome] = []
    with replayers(package, (app,)) as opened:
        replayer = opened[app]
        browser = replayer.context.browser
        shot_task = _shot_task(tasks, replayer.server.pages.spec)
        for task in tasks:
            shots = None
            if screenshots is not None and task is shot_task:
                screenshots.mkdir(parents=True, exist_ok=True)
                shots = {screen: screenshots / f"{app}-{screen}.png" for screen in SCREENS}
            outcomes.append(replayer.replay(task, shots))
            if progress is not None:
                progress(outcomes[-1])
        return outcomes, browser.version if browser is not None else "unknown"


def replay_ui_tasks(
    package: EnvPackage,
    tasks: list[UITask],
    apps: tuple[AppKind, ...],
    *,
    sample: int | None = None,
    screenshots: Path | None = None,
    progress: Callable[[ReplayOutcome], None] | None = None,
) -> tuple[list[ReplayOutcome], str]:
    """Replay the (sampled) UI tasks of each app; returns the outcomes (app by app) and the browser's version.

    The apps replay side by side, each from its own thread with its own Chromium: a replay mostly waits on
    the browser, so two of them share the cores well.
    """
    chosen = {app: spread([task for task in tasks if task.app == app], sample) for app in apps}
    with ThreadPoolExecutor(max_workers=len(apps), thread_name_prefix="ui-replay") as pool:
        futures = [pool.submit(_replay_app, package, app, chosen[app], screenshots, progress) for app in apps]
        results = [future.result() for future in futures]
    outcomes = [outcome for found, _ in results for outcome in found]
    return outcomes, results[0][1] if results else "unknown"


def summarize(outcomes: list[ReplayOutcome], chromium: str, screenshots: list[str]) -> UIReplaySummary:
    apps: dict[str, UIReplayApp] = {}
    for app in sorted({outcome.task.app for outcome in outcomes}):
        mine = [outcome for outcome in outcomes if outcome.task.app == app]
        failed = Counter(outcome.reason for outcome in mine if outcome.reason is not None)
        timed = [outcome.seconds for outcome in mine if outcome.reason not in ("passes_untouched",)]
        apps[app] = UIReplayApp(
            replayed=len(mine),
            passed=sum(outcome.passed for outcome in mine),
            failed=dict(sorted((str(reason), count) for reason, count in failed.items())),
            median_replay_s=round(median(timed), 4) if timed else 0.0,
            page_problems=sum(len(outcome.problems) for outcome in mine),
            toasts_without_writes=sum(outcome.toasts_without_writes for outcome in mine),
        )
    problems = [
        f"{outcome.task.app} {outcome.task.task_id}: {outcome.reason}: {outcome.detail}"
        for outcome in outcomes
        if not outcome.passed
    ][:PROBLEMS_KEPT]
    return UIReplaySummary(chromium=chromium, apps=apps, screenshots=screenshots, problems=problems)


def drops(outcomes: list[ReplayOutcome]) -> list[UIDrop]:
    return [
        UIDrop(task_id=o.task.task_id, app=o.task.app, reason=f"chromium_{o.reason}", detail=o.detail)
        for o in outcomes
        if o.reason is not None
    ]


def record_replay(
    package: OpenedPackage, tasks: list[UITask], outcomes: list[ReplayOutcome], chromium: str, shots: Path | None
) -> ValidationReport:
    """Drop the UI tasks that failed in Chromium (with their reasons), save the screenshots and the summary."""
    failed = {(o.task.task_id, o.task.app) for o in outcomes if not o.passed}
    kept = [task for task in tasks if (task.task_id, task.app) not in failed]
    earlier = [UIDrop.model_validate(item) for item in json.loads(package.read(UI_DROPPED_FILE))]
    # Drops of earlier runs stay: those tasks left ui_tasks.jsonl then and are not replayed again.
    dropped = [*[drop for drop in earlier if (drop.task_id, drop.app) not in failed], *drops(outcomes)]
    files: dict[str, bytes | None] = dict(UITasksArtifact(tasks=kept, dropped=dropped).to_files())
    pictures = sorted(shots.glob("*.png")) if shots is not None else []
    names = [f"{SCREENSHOTS}/{picture.name}" for picture in pictures]
    files.update({name: picture.read_bytes() for name, picture in zip(names, pictures, strict=True)})
    update = {"ui": ui_summary(kept, dropped), "ui_replay": summarize(outcomes, chromium, names)}
    return update_package(package.path, update, files)


@dataclass(frozen=True)
class UIReplayReport:
    """What `verify_ui` recorded in a package."""

    package: Path
    summary: UIReplaySummary

    @property
    def passed(self) -> bool:
        return all(result.passed == result.replayed for result in self.summary.apps.values())

    def as_dict(self) -> dict[str, Any]:
        return {"package": str(self.package), **self.summary.model_dump(mode="json")}

    def display(self) -> Display:
        summary, package = self.summary, self.package
        columns = ("app", "replayed", "passed", "median s", "dropped", "page problems", "toasts w/o write")
        rows = [result.cells(app) for app, result in summary.apps.items()]
        return Display(
            tables=[Table(f"golden UI replay in Chromium {summary.chromium}", columns, rows)],
            lines=[
                *(f"  {problem}" for problem in summary.problems),
                f"report: {package / 'report.md'}; screenshots: {len(summary.screenshots)} under {package / 'report'}",
            ],
        )


def parse_apps(value: str) -> tuple[AppKind, ...]:
    """`--app`: web, phone, or both comma-separated."""
    chosen = tuple(part.strip() for part in value.split(",") if part.strip())
    unknown = [part for part in chosen if part not in get_args(AppKind)]
    if not chosen or unknown:
        raise UserInputError(f"--app: '{value}' is not web, phone or web,phone")
    return cast(tuple[AppKind, ...], chosen)


def planned(package: Path, apps: tuple[AppKind, ...], sample: int | None) -> int:
    """How many replays `verify_ui` will do; a one-line error first when `package` is not a package."""
    require_package(package)
    tasks = load_ui_tasks(open_package(package))
    return sum(len(spread([task for task in tasks if task.app == app], sample)) for app in apps)


def verify_ui(
    package_path: Path,
    apps: tuple[AppKind, ...],
    *,
    sample: int | None,
    screenshots: bool,
    progress: Callable[[ReplayOutcome], None] | None = None,
) -> UIReplayReport:
    """Replay the package's golden UI paths and record what held in it (`envforge verify-ui`)."""
    package = load_package(open_package(package_path))
    tasks = load_ui_tasks(package.files)
    with tempfile.TemporaryDirectory(prefix="envforge-shots-") as folder:
        shots = Path(folder) if screenshots else None
        outcomes, chromium = replay_ui_tasks(package, tasks, apps, sample=sample, screenshots=shots, progress=progress)
        report = record_replay(package.files, tasks, outcomes, chromium, shots)
    assert report.ui_replay is not None
    return UIReplayReport(package_path, report.ui_replay)

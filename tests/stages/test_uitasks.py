"""The `uitasks` stage on every shipped domain: each accepted task posed in both apps, with a golden path
that was proved on the real app server over HTTP (no browser here; tests/runtime/apps/test_golden_replay.py
replays the same paths in Chromium)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from envforge.ir.apps import AppSpec
from envforge.ir.tasks import RunHistory, ToolCall, Transcript
from envforge.ir.uitasks import UIDrop
from envforge.runtime.apps import pickers as pickers_module
from envforge.runtime.apps.local_client import LocalClient
from envforge.runtime.apps.server import AppServer
from envforge.runtime.apps.uitasks import find_ui_task, load_ui_tasks
from envforge.runtime.episode import load_package
from envforge.runtime.opened_package import open_package
from envforge.stages.uitasks.http_page import HttpPage, StepError
from envforge.stages.uitasks.paths import UnbuildableError, build_path
from envforge.stages.uitasks.wording import third_person, ui_instruction
from tests.conftest import BLUEPRINTS, TEST_TASKS

DOMAINS = [path.stem for path in BLUEPRINTS]
STABLE_TARGETS = (
    "nav-", "home-", "find-", "search-", "row-", "action-", "field-", "open-actions", "submit", "confirm",
    "next-page", "value-", "result-count", "pick-",
)  # fmt: skip


@pytest.mark.parametrize("domain", DOMAINS)
def test_every_accepted_task_is_posed_in_both_apps_or_dropped_with_a_reason(
    packages: dict[str, Path], domain: str
) -> None:
    package = packages[domain]
    lines = [json.loads(line) for line in (package / "tasks.jsonl").read_text().splitlines()]
    accepted = [task["id"] for task in lines]
    hinging = {task["id"] for task in lines if task["forbidden"]}
    ui_tasks = load_ui_tasks(open_package(package))
    dropped = [UIDrop.model_validate(item) for item in json.loads((package / "apps/ui_dropped.json").read_text())]
    for app in ("web", "phone"):
        posed = {task.task_id for task in ui_tasks if task.app == app}
        refused = {drop.task_id for drop in dropped if drop.app == app}
        assert posed | refused == set(accepted)
        assert not posed & refused
        # A task whose request a policy forbids or changes is not posed on a screen, which shows no policy to keep.
        assert {drop.task_id for drop in dropped if drop.app == app and drop.reason == "policy"} == hinging
        # Nor is a question asked once a write is done: a screen task poses one request.
        asking = {task["id"] for task in lines if task["expected_answer"] is not None and task["kind"] != "read"}
        assert {drop.task_id for drop in dropped if drop.app == app and drop.reason == "question_after"} == asking
        # Nor a change of mind: the new value comes once the agent names the first, in a conversation.
        changing = {task["id"] for task in lines if any(r["changes"] for r in task["scenario"]["script"])}
        assert {drop.task_id for drop in dropped if drop.app == app and drop.reason == "change_of_mind"} == changing
        wanted = 0.9 * (TEST_TASKS - len(hinging) - len(asking) - len(changing))
        assert len(posed) >= wanted, f"{domain} {app}: {len(posed)} posed; dropped {dropped}"
    report = json.loads((package / "report.json").read_text())
    assert report["ui"]["web"]["posed"] == sum(task.app == "web" for task in ui_tasks)
    assert report["ui"]["phone"]["posed"] == sum(task.app == "phone" for task in ui_tasks)
    assert "## UI tasks" in (package / "report.md").read_text()


@pytest.mark.parametrize("domain", DOMAINS)
def test_paths_use_stable_selectors_and_the_phone_opens_its_action_sheet(
    packages: dict[str, Path], domain: str
) -> None:
    spec = AppSpec.model_validate_json((packages[domain] / "apps/app.json").read_bytes())
    on_records = {form.tool for form in spec.actions if form.record_param is not None}
    for task in load_ui_tasks(open_package(packages[domain])):
        assert all(step.target.startswith(STABLE_TARGETS) for step in task.steps), task.steps
        clicks = [step.target for step in task.steps if step.action == "click"]
        assert clicks[0].startswith(("nav-", "home-")) or clicks[0] == "nav-more"
        if task.answers:
            assert task.steps[-1].action == "read"
        else:
            assert "submit" in clicks
        for index, target in enumerate(clicks):
            if target.removeprefix("action-") in on_records:
                # a record's actions live in the phone's bottom sheet, opened first; the web shows them inline
                assert (clicks[index - 1] == "open-actions") == (task.app == "phone"), (task.task_id, clicks)


def test_a_ui_instruction_is_worded_for_the_screen_and_keeps_every_fact(packages: dict[str, Path]) -> None:
    package = load_package(open_package(packages["retail"]))
    posed = {task.task_id for task in load_ui_tasks(open_package(packages["retail"])) if task.app == "web"}
    writes = [package.task(t) for t in package.task_ids if t in posed and package.task(t).kind != "read"]
    for write in writes:
        ui = find_ui_task(open_package(packages["retail"]), write.id, "web")
        assert ui.instruction.startswith(f"In the {package.env.blueprint.title} app, for customer ")
        finder = {k: v for k, v in write.oracle[0].arguments.items() if k != "limit"}
        assert all(str(value) in ui.instruction for value in finder.values())
        assert " my " not in f" {ui.instruction} "
        for clause in write.scenario.requests:
            if not write.scenario.which:
                assert third_person(clause) in ui.instruction
        for value in [*write.scenario.details.values(), *write.scenario.which.values()]:
            assert third_person(str(value)) in ui.instruction, (write.id, value)
    question = next(package.task(t) for t in package.task_ids if package.task(t).kind == "read")
    plurals = {entity.name: entity.plural or entity.name + "s" for entity in package.env.blueprint.entities}
    worded = ui_instruction(question, "Shop", "customer", plurals)
    assert worded.startswith("In the Shop app, look up customer ") and "find out " in worded
    assert worded.endswith("Answer with the value as the app shows it.")


def test_question_paths_read_the_answer_off_the_screen(packages: dict[str, Path]) -> None:
    """The golden path of a question ends on the value the verifier wants, as the app renders it."""
    path = packages["library"]
    package = load_package(open_package(path))
    server = AppServer(package, "phone")
    with LocalClient(server.app()) as client:
        questions = [package.task(t) for t in package.task_ids if package.task(t).kind == "read"]
        assert questions
        for task in questions:
            steps, episode, answer = build_path(server, "phone", client, task)
            assert steps[-1].action == "read"
            verdict = package.verify(task.id, episode.session.history(), Transcript(answer=answer))
            assert verdict.passed, (task.instruction, answer, verdict.reasons)
            assert not package.verify(task.id, RunHistory(), Transcript(answer="0")).passed or (
                task.expected_answer == "0"
            )


def test_a_path_is_the_oracle_done_by_hand(packages: dict[str, Path]) -> None:
    """Doing the steps on a fresh episode makes exactly the oracle's tool calls of WRITE tools."""
    path = packages["airline"]
    package = load_package(open_package(path))
    server = AppServer(package, "web")
    with LocalClient(server.app()) as client:
        for task_id in package.task_ids[:8]:
            task = package.task(task_id)
            _, episode, _ = build_path(server, "web", client, task)
            writes = [(name, ok) for name, _, ok in episode.calls if package.env.tools[name].kind == "write"]
            oracle = [call.name for call in task.oracle if package.env.tools[call.name].kind == "write"]
            assert writes == [(name, True) for name in oracle]


def test_a_task_whose_record_the_app_cannot_reach_is_unbuildable(packages: dict[str, Path]) -> None:
    path = packages["retail"]
    package = load_package(open_package(path))
    task = next(package.task(t) for t in package.task_ids if package.task(t).oracle[-1].name == "cancel_order")
    broken = task.model_copy(
        update={"oracle": [*task.oracle[:-1], ToolCall(name="cancel_order", arguments={"order_id": "ORD-000000"})]}
    )
    server = AppServer(package, "web")
    with LocalClient(server.app()) as client, pytest.raises(UnbuildableError) as caught:
        build_path(server, "web", client, broken)
    assert caught.value.reason == "record_unreachable"
    assert len(server.episodes) == 0


def test_the_page_model_refuses_what_a_browser_could_not_do(packages: dict[str, Path]) -> None:
    path = packages["retail"]
    server = AppServer(load_package(open_package(path)), "web")
    spec = AppSpec.model_validate_json((path / "apps/app.json").read_bytes())
    with LocalClient(server.app()) as client:
        episode = server.episodes.open_free()
        page = HttpPage(client, f"/e/{episode.token}/")
        with pytest.raises(StepError, match="0 elements named 'nav-nowhere'"):
            page.click("nav-nowhere")
        page.click(f"nav-{spec.navigation[0]}")
        with pytest.raises(StepError, match="not a select control"):
            page.select("search-submit", "x")
        assert [step.target for step in page.steps] == [f"nav-{spec.navigation[0]}"]
        assert page.path == f"/e/{episode.token}/{spec.navigation[0]}/"


def _record_fields(spec: AppSpec) -> dict[str, set[str]]:
    """Tool -> its form's fields that take a row (pickers)."""
    return {form.tool: {field.name for field in form.fields if field.input == "record"} for form in spec.actions}


def test_a_golden_path_picks_a_row_by_the_label_a_person_reads_not_by_typing_its_key(
    packages: dict[str, Path],
) -> None:
    path = packages["banking"]
    package = load_package(open_package(path))
    pickers = _record_fields(AppSpec.model_validate_json((path / "apps/app.json").read_bytes()))
    picked = 0
    for ui in load_ui_tasks(open_package(path)):
        task = package.task(ui.task_id)
        keys = {
            str(value)
            for call in task.oracle
            for name, value in call.arguments.items()
            if name in pickers.get(call.name, set())
        }
        for step in ui.steps:
            if step.target.removeprefix("field-") in {name for names in pickers.values() for name in names}:
                assert step.action == "select", step
                assert step.value is not None and step.value not in keys and step.value.endswith(")"), step
                assert step.value.rsplit("(", 1)[1].rstrip(")") in keys
                picked += 1
    assert picked, "no banking UI task fills a field that takes a row"


def test_a_row_past_the_pickers_limit_is_searched_for_then_picked_by_label(
    packages: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = packages["banking"]
    package = load_package(open_package(path))
    monkeypatch.setattr(pickers_module, "PICKER_LIMIT", 1)
    pickers = _record_fields(AppSpec.model_validate_json((path / "apps/app.json").read_bytes()))
    tasks = [
        package.task(t)
        for t in package.task_ids
        if any(set(call.arguments) & pickers.get(call.name, set()) for call in package.task(t).oracle)
    ]
    # The tasks each app poses (not, say, a question asked once a write is done), now with one row per picker.
    posed = {(ui.task_id, ui.app) for ui in load_ui_tasks(open_package(path))}
    searched = 0
    for kind in ("web", "phone"):
        server = AppServer(package, kind)
        with LocalClient(server.app()) as client:
            for task in [task for task in tasks if (task.id, kind) in posed]:
                try:
                    steps, episode, answer = build_path(server, kind, client, task)
                except UnbuildableError as error:
                    assert error.reason not in ("not_offered", "missing_element"), error
                    continue
                verdict = package.verify(task.id, episode.session.history(), episode.transcript(answer))
                assert verdict.passed, (task.id, kind, verdict.reasons)
                targets = [step.target for step in steps]
                for index, target in enumerate(targets):
                    if target.startswith("pick-search-"):
                        field = target.removeprefix("pick-search-")
                        assert steps[index - 1].action == "fill" and steps[index - 1].target == f"pick-{field}"
                        assert f"field-{field}" in targets[index + 1 :]
                        searched += 1
    assert searched, "with one row listed per picker, some path has to search"
